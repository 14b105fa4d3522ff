import type { Hono } from 'hono';
import { TemplateCreateBody, TemplateList, TemplateView } from '../../contract/index.js';
import type { TemplateOperations } from '../../backend/storyboard/canvas-templates.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { ok, PROJECT, projectParams } from '../route-parameters.js';

/** GET and POST /api/v1/projects/{project_id}/templates: the templates a new canvas can start from. */

const LIST = apiRoute({
  method: 'get',
  path: `${PROJECT}/templates`,
  operationId: 'listTemplates',
  summary: "The templates a new canvas can start from (members): the built-in ones and the project's own.",
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  responses: { 200: ok('The templates.', TemplateList) },
});

const SAVE = apiRoute({
  method: 'post',
  path: `${PROJECT}/templates`,
  operationId: 'saveTemplate',
  summary: "Save a canvas as one of the project's templates (owners): its nodes and edges as they are now.",
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  body: TemplateCreateBody,
  responses: { 201: ok('Saved.', TemplateView) },
});

export const TEMPLATE_ROUTES = [LIST, SAVE];

export function registerTemplateRoutes(app: Hono<BackendHttpEnv>, templates: TemplateOperations): void {
  handle(app, LIST, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await templates.list(c.get('caller'), project_id));
  });
  handle(app, SAVE, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await templates.save(c.get('caller'), project_id, await input.body()), 201);
  });
}
