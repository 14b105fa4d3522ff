import type { Hono } from 'hono';
import {
  ResourceId,
  RunApprovalDecisionBody,
  RunApprovalList,
  RunApprovalRequestBody,
  RunApprovalView,
} from '../../contract/index.js';
import type { RunApprovalOperations } from '../../backend/canvas/run-approvals.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/** …/canvases/{canvas_id}/run-approvals (docs/contract.md, "Spend confirmation"): agents ask, people answer. */

const RUN_APPROVALS = `${CANVAS}/run-approvals`;

const LIST = apiRoute({
  method: 'get',
  path: RUN_APPROVALS,
  operationId: 'listRunApprovals',
  summary:
    'Paid runs external agents asked to start, waiting for a person (members); `?status=pending` for the open ones.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The approvals, newest first.', RunApprovalList) },
});

const ASK = apiRoute({
  method: 'post',
  path: RUN_APPROVALS,
  operationId: 'askRunApproval',
  summary:
    "An agent asks a person's approval of a paid run (tokens only; the tool server asks for agents whose client cannot ask in the call).",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: RunApprovalRequestBody,
  responses: { 200: ok('Where the approval stands.', RunApprovalView) },
});

const DECIDE = apiRoute({
  method: 'post',
  path: `${RUN_APPROVALS}/:approval_id`,
  operationId: 'decideRunApproval',
  summary: 'A person approves or declines (editors, signed in: never a token).',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams.extend({ approval_id: ResourceId }),
  body: RunApprovalDecisionBody,
  responses: { 200: ok('Answered.', RunApprovalView) },
});

export const RUN_APPROVAL_ROUTES = [LIST, ASK, DECIDE];

export function registerRunApprovalRoutes(app: Hono<BackendHttpEnv>, approvals: RunApprovalOperations): void {
  handle(app, LIST, async (c, input) =>
    c.json(await approvals.list(c.get('caller'), canvasRef(input.params()), c.req.query('status') === 'pending')),
  );
  handle(app, ASK, async (c, input) => {
    const ref = canvasRef(input.params());
    return c.json(await approvals.ask(c.get('caller'), ref, await input.body()));
  });
  handle(app, DECIDE, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(await approvals.decide(c.get('caller'), canvasRef(params), params.approval_id, body.decision));
  });
}
