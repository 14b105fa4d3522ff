import type { Hono } from 'hono';
import { ElementCreateBody, ElementId, ElementList, ElementUpdateBody, ElementView } from '../../contract/index.js';
import type { ElementOperations } from '../../backend/storyboard/elements.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { ok, PROJECT, projectParams } from '../route-parameters.js';

/** A project's elements: GET and POST …/elements, PATCH and DELETE …/elements/{element_id}. */

const ELEMENTS = `${PROJECT}/elements`;
const elementParams = projectParams.extend({ element_id: ElementId });

const LIST = apiRoute({
  method: 'get',
  path: ELEMENTS,
  operationId: 'listElements',
  summary: "The project's elements (members): cast, locations, props and styles with their reference pictures.",
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  responses: { 200: ok('The elements.', ElementList) },
});

const CREATE = apiRoute({
  method: 'post',
  path: ELEMENTS,
  operationId: 'createElement',
  summary: 'Add an element (editors); references are asset ids of pictures uploaded to this project.',
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  body: ElementCreateBody,
  responses: { 201: ok('Created.', ElementView) },
});

const UPDATE = apiRoute({
  method: 'patch',
  path: `${ELEMENTS}/:element_id`,
  operationId: 'updateElement',
  summary: 'Change an element (editors): the fields given; `references` replaces the list.',
  tag: 'people',
  auth: 'caller',
  params: elementParams,
  body: ElementUpdateBody,
  responses: { 200: ok('Changed.', ElementView) },
});

const DELETE = apiRoute({
  method: 'delete',
  path: `${ELEMENTS}/:element_id`,
  operationId: 'deleteElement',
  summary: 'Remove an element (editors); shots that named it keep their words.',
  tag: 'people',
  auth: 'caller',
  params: elementParams,
  responses: { 204: { description: 'Removed.' } },
});

export const ELEMENT_ROUTES = [LIST, CREATE, UPDATE, DELETE];

export function registerElementRoutes(app: Hono<BackendHttpEnv>, elements: ElementOperations): void {
  handle(app, LIST, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await elements.list(c.get('caller'), project_id));
  });
  handle(app, CREATE, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await elements.create(c.get('caller'), project_id, await input.body()), 201);
  });
  handle(app, UPDATE, async (c, input) => {
    const { project_id, element_id } = input.params();
    return c.json(await elements.update(c.get('caller'), project_id, element_id, await input.body()));
  });
  handle(app, DELETE, async (c, input) => {
    const { project_id, element_id } = input.params();
    await elements.remove(c.get('caller'), project_id, element_id);
    return c.body(null, 204);
  });
}
