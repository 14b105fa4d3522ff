import type { Hono } from 'hono';
import {
  CanvasId,
  ProjectId,
  ResourceId,
  RunApprovalDecisionBody,
  RunApprovalRequestBody,
} from '../../contract/index.js';
import type { RunApprovalOperations } from '../../backend/run-approvals.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** …/canvases/{canvas_id}/run-approvals (issue 34, item 6): agents ask, people answer. */

export const RUN_APPROVALS_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/run-approvals';

export function registerRunApprovalRoutes(app: Hono<BackendHttpEnv>, approvals: RunApprovalOperations): void {
  const canvas = { project_id: ProjectId, canvas_id: CanvasId };
  const refOf = (params: { project_id: string; canvas_id: string }) => ({
    projectId: params.project_id,
    canvasId: params.canvas_id,
  });
  app.get(RUN_APPROVALS_PATH, async (c) =>
    c.json(await approvals.list(c.get('caller'), refOf(pathParams(c, canvas)), c.req.query('status') === 'pending')),
  );
  app.post(RUN_APPROVALS_PATH, async (c) => {
    const params = pathParams(c, canvas);
    return c.json(await approvals.ask(c.get('caller'), refOf(params), await jsonBody(c, RunApprovalRequestBody)));
  });
  app.post(`${RUN_APPROVALS_PATH}/:approval_id`, async (c) => {
    const params = pathParams(c, { ...canvas, approval_id: ResourceId });
    const body = await jsonBody(c, RunApprovalDecisionBody);
    return c.json(await approvals.decide(c.get('caller'), refOf(params), params.approval_id, body.decision));
  });
}
