import type { Hono } from 'hono';
import { CanvasId, ProjectId, TidyBody } from '../../contract/index.js';
import type { CanvasBackend } from '../../backend/backend.js';
import { tidyCanvas } from '../../backend/tidy.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** POST …/canvases/{canvas_id}/tidy (issue 34, item 4): some nodes laid out again, as one revision. */

export const TIDY_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/tidy';

export function registerTidyRoutes(app: Hono<BackendHttpEnv>, backend: CanvasBackend): void {
  app.post(TIDY_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    const ref = { projectId: params.project_id, canvasId: params.canvas_id };
    await backend.authorize(c.get('caller'), ref.projectId, 'editor');
    const receipt = await tidyCanvas(backend, c.get('caller'), ref, await jsonBody(c, TidyBody));
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });
}
