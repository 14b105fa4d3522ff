import { dataOf, type CanvasRef, type UpdateNodeReceipt } from '../../contract/index.js';
import { continuedShot } from '../../shared/continuity.js';
import { CanvasError } from '../../shared/errors.js';
import { shotNumberOf } from '../../shared/shot-words.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from '../canvas/backend.js';

/**
 * "Continue from previous" on a shot (docs/storyboards.md, "Continuity"): the shot takes the cast, location, lens and look of
 * the shot before it, in one write of the board at the revision the caller read: one revision with its
 * author, in history and on the feed, undone by a revert. A camera of a floor plan linked to the shot follows its
 * new lens in that same revision (src/store/layout-writes/lens-links.ts).
 */
export function createContinuity(store: Store, canvas: CanvasBackend) {
  return {
    async continueFromPrevious(
      ctx: CallerContext,
      args: CanvasRef & { boardId: string; shotId: string; baseRevision: number; clientSaveId: string | null },
    ): Promise<UpdateNodeReceipt> {
      await canvas.authorize(ctx, args.projectId, 'editor');
      const board = (await store.layout.readNode(args.projectId, args.canvasId, args.boardId))?.node;
      const data = board ? dataOf(board, 'storyboardNode') : undefined;
      if (!board || !data)
        throw new CanvasError('not_found', `There is no storyboard ${args.boardId} on this canvas.`, {
          node_id: args.boardId,
        });
      const index = data.frames.findIndex((frame) => frame.id === args.shotId);
      if (index < 0)
        throw new CanvasError('not_found', `Storyboard ${args.boardId} has no shot ${args.shotId}.`, {
          node_id: args.boardId,
          shot_id: args.shotId,
        });
      if (index === 0)
        throw new CanvasError(
          'invalid_arguments',
          `Shot ${shotNumberOf(data.frames[0]!, 0)} is the first of its board: there is no shot before it to continue from.`,
          { field: 'shot_id', shot_id: args.shotId },
        );
      const previous = data.frames[index - 1]!;
      const frames = data.frames.map((frame, at) => (at === index ? continuedShot(frame, previous) : frame));
      return canvas.updateNode(ctx, {
        projectId: args.projectId,
        canvasId: args.canvasId,
        baseRevision: args.baseRevision,
        clientSaveId: args.clientSaveId,
        nodeId: args.boardId,
        set: { data: { ...data, frames } },
      });
    },
  };
}

export type Continuity = ReturnType<typeof createContinuity>;
