import type { Hono } from 'hono';
import { CanvasId, ProjectId } from '../../contract/index.js';
import type { CanvasBackend } from '../../backend/backend.js';
import { readBoardImage } from '../../backend/board-image.js';
import type { BoardImages } from '../../render/board-images.js';
import { parseBoardView } from '../../shared/board-target.js';
import type { BackendHttpEnv } from '../http-env.js';
import { pathParams } from '../request-parsing.js';

/**
 * GET …/canvases/{canvas_id}/board.png (issue 34, item 3): the canvas as a picture, for the web and scripts: the same
 * picture as the MCP resource `canvas://{project_id}/{canvas_id}/board.png` (and the gateway reads it here), with the
 * same query (node_id, or x, y, width, height; format=webp). Whoever may read the canvas may read it.
 */

export const BOARD_IMAGE_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/board.png';

export function registerBoardImageRoutes(app: Hono<BackendHttpEnv>, backend: CanvasBackend, images: BoardImages): void {
  app.get(BOARD_IMAGE_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    const view = parseBoardView({ get: (name) => c.req.query(name) ?? null });
    const image = await readBoardImage(
      backend,
      images,
      c.get('caller'),
      { projectId: params.project_id, canvasId: params.canvas_id },
      view,
    );
    return c.body(new Uint8Array(image.bytes), 200, {
      'content-type': image.mimeType,
      'content-length': String(image.bytes.length),
      'cache-control': 'private, max-age=60',
      'x-content-type-options': 'nosniff',
      'x-canvas-revision': String(image.revision),
    });
  });
}
