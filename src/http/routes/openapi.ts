import type { Env, Hono } from 'hono';
import { z } from 'zod';
import { CanvasError } from '../../shared/errors.js';
import { apiRoute, handleService } from '../route-declaration.js';
import { ok } from '../route-parameters.js';

/** GET /api/openapi.json: the API's OpenAPI document, open to anyone (it describes routes, never data). */

export const OPENAPI_PATH = '/api/openapi.json';

const OPENAPI = apiRoute({
  method: 'get',
  path: OPENAPI_PATH,
  operationId: 'openApiDocument',
  summary: 'This document.',
  tag: 'service',
  auth: 'none',
  responses: {
    200: ok(
      'The OpenAPI 3.1 document of this API.',
      z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
    ),
  },
});

export const OPENAPI_ROUTES = [OPENAPI];

/**
 * Serves the document `build` assembles (src/http/openapi/api-document.ts), handed in by the composition root: the
 * document lists this route too, so this file does not import it.
 */
export function registerOpenApiRoute<E extends Env>(app: Hono<E>, build: () => object): void {
  let text: string | undefined;
  handleService(app, OPENAPI, (c) => {
    // Built on first request (about 10 ms), then served from memory: the document never changes while the server runs.
    text ??= JSON.stringify(build());
    return c.body(text, 200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
  });
  app.all(OPENAPI_PATH, (c) => {
    throw new CanvasError('method_not_allowed', `${c.req.method} is not allowed on ${OPENAPI_PATH}.`);
  });
}
