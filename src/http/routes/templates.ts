import type { Hono } from 'hono';
import { ProjectId, TemplateCreateBody } from '../../contract/index.js';
import type { TemplateOperations } from '../../backend/canvas-templates.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** GET and POST /api/v1/projects/{project_id}/templates (issue 32): the templates a new canvas can start from. */

export const TEMPLATES_PATH = '/api/v1/projects/:project_id/templates';

export function registerTemplateRoutes(app: Hono<BackendHttpEnv>, templates: TemplateOperations): void {
  app.get(TEMPLATES_PATH, async (c) => {
    const { project_id } = pathParams(c, { project_id: ProjectId });
    return c.json(await templates.list(c.get('caller'), project_id));
  });
  app.post(TEMPLATES_PATH, async (c) => {
    const { project_id } = pathParams(c, { project_id: ProjectId });
    return c.json(await templates.save(c.get('caller'), project_id, await jsonBody(c, TemplateCreateBody)), 201);
  });
}
