import type { CanvasRef } from '../../contract/index.js';
import type { BoardImage, BoardImages } from '../../render/board-images.js';
import type { BoardView } from '../../shared/board-target.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from '../canvas/backend.js';

/**
 * A view of a canvas as a picture (docs/contract.md, "The board as a picture"), read with the caller's rights: whoever
 * may read the canvas may see it (viewer), nobody else. The MCP resource, the REST route and the chat's attachment all
 * come through here.
 */
export async function readBoardImage(
  backend: CanvasBackend,
  images: BoardImages,
  ctx: CallerContext,
  ref: CanvasRef,
  view: BoardView,
): Promise<BoardImage> {
  const read = await backend.readSnapshot(ctx, ref);
  return images.render(
    ref,
    { revision: read.revision, statesVersion: read.statesVersion, json: read.payload.json },
    view,
  );
}
