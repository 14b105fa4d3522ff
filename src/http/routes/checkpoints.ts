import type { Hono } from 'hono';
import { CanvasId, CheckpointCreateBody, ProjectId } from '../../contract/index.js';
import type { CheckpointOperations } from '../../backend/checkpoints.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** GET and POST …/canvases/{canvas_id}/checkpoints (issue 34, item 5): named revisions to come back to. */

export const CHECKPOINTS_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/checkpoints';

export function registerCheckpointRoutes(app: Hono<BackendHttpEnv>, checkpoints: CheckpointOperations): void {
  const refOf = (params: { project_id: string; canvas_id: string }) => ({
    projectId: params.project_id,
    canvasId: params.canvas_id,
  });
  app.get(CHECKPOINTS_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    return c.json(await checkpoints.list(c.get('caller'), refOf(params)));
  });
  app.post(CHECKPOINTS_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    return c.json(
      await checkpoints.create(c.get('caller'), refOf(params), await jsonBody(c, CheckpointCreateBody)),
      201,
    );
  });
}
