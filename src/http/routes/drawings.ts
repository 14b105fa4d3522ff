import type { Hono } from 'hono';
import { Drawing, DrawingReceipt, SaveDrawingBody } from '../../contract/index.js';
import type { Drawings } from '../../backend/storyboard/drawings.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { AgentRunHeader, CANVAS, canvasRef, ok, shotParams } from '../route-parameters.js';

/** A shot's drawing (docs/drawing.md): read it whole, or save one gesture's changes to it. */

const PATH = `${CANVAS}/nodes/:node_id/shots/:shot_id/drawing`;

const READ_DRAWING = apiRoute({
  method: 'get',
  path: PATH,
  operationId: 'getShotDrawing',
  summary:
    "A shot's drawing (viewers): its layers and strokes, each stroke's input points with pressure, in frame coordinates (0 to 1); a blank drawing over the shot's picture when it has none.",
  tag: 'canvas',
  auth: 'caller',
  params: shotParams,
  responses: { 200: ok("The shot's drawing.", Drawing) },
});

const SAVE_DRAWING = apiRoute({
  method: 'post',
  path: PATH,
  operationId: 'saveShotDrawing',
  summary:
    "Save changes to a shot's drawing (editors): strokes added or removed by id, layers set. Applied to the newest drawing (a save made on an older version merges, never overwrites), rendered into the shot's picture, in one revision.",
  tag: 'canvas',
  auth: 'caller',
  params: shotParams,
  headers: AgentRunHeader,
  body: SaveDrawingBody,
  responses: { 200: ok('Saved, in one revision.', DrawingReceipt) },
});

export const DRAWING_ROUTES = [READ_DRAWING, SAVE_DRAWING];

export function registerDrawingRoutes(app: Hono<BackendHttpEnv>, drawings: Drawings): void {
  handle(app, READ_DRAWING, async (c, input) => {
    const params = input.params();
    return c.json(await drawings.read(c.get('caller'), canvasRef(params), params.node_id, params.shot_id));
  });
  handle(app, SAVE_DRAWING, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(await drawings.save(c.get('caller'), canvasRef(params), params.node_id, params.shot_id, body));
  });
}
