import type { Hono } from 'hono';
import { ElementCreateBody, ElementId, ElementUpdateBody, ProjectId } from '../../contract/index.js';
import type { ElementOperations } from '../../backend/elements.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** A project's elements (issue 32, item 5): GET and POST …/elements, PATCH and DELETE …/elements/{element_id}. */

export const ELEMENTS_PATH = '/api/v1/projects/:project_id/elements';
export const ELEMENT_PATH = `${ELEMENTS_PATH}/:element_id`;

export function registerElementRoutes(app: Hono<BackendHttpEnv>, elements: ElementOperations): void {
  app.get(ELEMENTS_PATH, async (c) => {
    const { project_id } = pathParams(c, { project_id: ProjectId });
    return c.json(await elements.list(c.get('caller'), project_id));
  });
  app.post(ELEMENTS_PATH, async (c) => {
    const { project_id } = pathParams(c, { project_id: ProjectId });
    return c.json(await elements.create(c.get('caller'), project_id, await jsonBody(c, ElementCreateBody)), 201);
  });
  app.patch(ELEMENT_PATH, async (c) => {
    const { project_id, element_id } = pathParams(c, { project_id: ProjectId, element_id: ElementId });
    return c.json(await elements.update(c.get('caller'), project_id, element_id, await jsonBody(c, ElementUpdateBody)));
  });
  app.delete(ELEMENT_PATH, async (c) => {
    const { project_id, element_id } = pathParams(c, { project_id: ProjectId, element_id: ElementId });
    await elements.remove(c.get('caller'), project_id, element_id);
    return c.body(null, 204);
  });
}
