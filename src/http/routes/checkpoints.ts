import type { Hono } from 'hono';
import { CheckpointCreateBody, CheckpointList, CheckpointView } from '../../contract/index.js';
import type { CheckpointOperations } from '../../backend/canvas/checkpoints.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/** GET and POST …/canvases/{canvas_id}/checkpoints (docs/ui.md, "History"): named revisions to come back to. */

const LIST = apiRoute({
  method: 'get',
  path: `${CANVAS}/checkpoints`,
  operationId: 'listCheckpoints',
  summary: "The canvas's checkpoints (members), newest first: named revisions to come back to with a revert.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The checkpoints.', CheckpointList) },
});

const CREATE = apiRoute({
  method: 'post',
  path: `${CANVAS}/checkpoints`,
  operationId: 'createCheckpoint',
  summary: 'Name a revision of the canvas (editors): the current one, or an earlier one.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: CheckpointCreateBody,
  responses: { 201: ok('Named.', CheckpointView) },
});

export const CHECKPOINT_ROUTES = [LIST, CREATE];

export function registerCheckpointRoutes(app: Hono<BackendHttpEnv>, checkpoints: CheckpointOperations): void {
  handle(app, LIST, async (c, input) => c.json(await checkpoints.list(c.get('caller'), canvasRef(input.params()))));
  handle(app, CREATE, async (c, input) => {
    const ref = canvasRef(input.params());
    return c.json(await checkpoints.create(c.get('caller'), ref, await input.body()), 201);
  });
}
