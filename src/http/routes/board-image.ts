import type { Hono } from 'hono';
import { z } from 'zod';
import type { CanvasBackend } from '../../backend/canvas/backend.js';
import { readBoardImage } from '../../backend/deliverables/board-image.js';
import type { BoardImages } from '../../render/board-images.js';
import { parseBoardView } from '../../shared/board-target.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, FileBytes } from '../route-parameters.js';

/**
 * GET …/canvases/{canvas_id}/board.png: the canvas as a picture, for the web and scripts: the same picture as the MCP
 * resource `canvas://{project_id}/{canvas_id}/board.png` (and the gateway reads it here), with the same query (node_id,
 * or x, y, width, height; format=webp; guides=titleSafe,… on a storyboard's contact sheet), read by the one parser both share (parseBoardView). Whoever may read the canvas
 * may read it.
 */

const BOARD_IMAGE = apiRoute({
  method: 'get',
  path: `${CANVAS}/board.png`,
  operationId: 'getBoardImage',
  summary:
    'The canvas as a picture (viewers; docs/contract.md, "The board as a picture"): each node a card with its thumbnail or type and its name, at most 1,568 px on the long edge and 1 MB; a storyboard as a contact sheet, a group, or a region.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  query: z.object({
    node_id: z
      .string()
      .optional()
      .meta({ description: 'A storyboard (its contact sheet) or a group (what it holds).' }),
    x: z.number().optional().meta({ description: 'A region in canvas coordinates: x, y, width and height together.' }),
    y: z.number().optional(),
    width: z.number().optional(),
    height: z.number().optional(),
    format: z.enum(['png', 'webp']).optional().meta({ description: 'png (the default) or webp.' }),
    guides: z.string().optional().meta({
      description:
        "With a storyboard's node_id: framing guides over each shot, comma-separated (titleSafe, actionSafe, centre, thirds, crop9x16, crop4x5).",
    }),
  }),
  responses: {
    200: { description: 'The picture.', content: { 'image/png': FileBytes, 'image/webp': FileBytes } },
  },
});

export const BOARD_IMAGE_ROUTES = [BOARD_IMAGE];

export function registerBoardImageRoutes(app: Hono<BackendHttpEnv>, backend: CanvasBackend, images: BoardImages): void {
  handle(app, BOARD_IMAGE, async (c, input) => {
    const ref = canvasRef(input.params());
    const view = parseBoardView({ get: (name) => c.req.query(name) ?? null });
    const image = await readBoardImage(backend, images, c.get('caller'), ref, view);
    return c.body(new Uint8Array(image.bytes), 200, {
      'content-type': image.mimeType,
      'content-length': String(image.bytes.length),
      'cache-control': 'private, max-age=60',
      'x-content-type-options': 'nosniff',
      'x-canvas-revision': String(image.revision),
    });
  });
}
