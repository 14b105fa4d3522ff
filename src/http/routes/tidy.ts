import type { Hono } from 'hono';
import { BatchReceipt, TidyBody } from '../../contract/index.js';
import type { CanvasBackend } from '../../backend/canvas/backend.js';
import { tidyCanvas } from '../../backend/canvas/tidy.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/** POST …/canvases/{canvas_id}/tidy (docs/ui.md, "Tidy"): some nodes laid out again, as one revision. */

const TIDY = apiRoute({
  method: 'post',
  path: `${CANVAS}/tidy`,
  operationId: 'tidyNodes',
  summary:
    'Lay out some nodes of one parent again (editors): along their connections or in a grid, as one revision of position changes at base_revision.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: TidyBody,
  responses: {
    201: ok('Laid out.', BatchReceipt),
    200: ok('A replay of an identical earlier request.', BatchReceipt),
  },
});

export const TIDY_ROUTES = [TIDY];

export function registerTidyRoutes(app: Hono<BackendHttpEnv>, backend: CanvasBackend): void {
  handle(app, TIDY, async (c, input) => {
    const ref = canvasRef(input.params());
    await backend.authorize(c.get('caller'), ref.projectId, 'editor');
    const receipt = await tidyCanvas(backend, c.get('caller'), ref, await input.body());
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });
}
