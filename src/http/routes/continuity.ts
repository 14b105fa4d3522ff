import type { Hono } from 'hono';
import { ContinueShotBody, UpdateNodeReceipt } from '../../contract/index.js';
import type { Continuity } from '../../backend/storyboard/continuity.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { AgentRunHeader, CANVAS, canvasRef, ok, shotParams } from '../route-parameters.js';

/** "Continue from previous" on a shot (docs/storyboards.md, "Continuity"). */

const CONTINUE_FROM_PREVIOUS = apiRoute({
  method: 'post',
  path: `${CANVAS}/nodes/:node_id/shots/:shot_id/continue-from-previous`,
  operationId: 'continueShotFromPrevious',
  summary:
    'The shot takes the cast, location, lens and look of the shot before it (editors), exactly, in one revision: a field the shot before lacks is removed.',
  tag: 'canvas',
  auth: 'caller',
  params: shotParams,
  headers: AgentRunHeader,
  body: ContinueShotBody,
  responses: { 200: ok('The write.', UpdateNodeReceipt) },
});

export const CONTINUITY_ROUTES = [CONTINUE_FROM_PREVIOUS];

export function registerContinuityRoutes(app: Hono<BackendHttpEnv>, continuity: Continuity): void {
  handle(app, CONTINUE_FROM_PREVIOUS, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(
      await continuity.continueFromPrevious(c.get('caller'), {
        ...canvasRef(params),
        boardId: params.node_id,
        shotId: params.shot_id,
        baseRevision: body.base_revision,
        clientSaveId: body.client_save_id ?? null,
      }),
    );
  });
}
