import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { CanvasEdge, CanvasNode, ErrorBody, NodeRun } from '../../contract/index.js';
import { PACKAGE_VERSION } from '../../shared/version.js';
import type { ApiRoute, Auth } from '../route-declaration.js';
import { apiRoutes } from './api-routes.js';

/**
 * The OpenAPI 3.1 document of the backend's HTTP API, generated from the routes' declarations (api-routes.ts) and the
 * contract's zod schemas they name (no schema is written by hand). Served at /api/openapi.json and printed by
 * `canvas-mcp openapi`.
 */

/** `/a/:b` (Hono) → `/a/{b}` (OpenAPI). */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const SECURITY: Record<Auth, Array<Record<string, string[]>>> = {
  none: [],
  caller: [{ bearerToken: [] }, { sessionCookie: [] }],
  gateway: [{ bearerToken: [] }],
  metrics: [{}, { metricsToken: [] }],
  asset: [{}, { bearerToken: [] }, { sessionCookie: [] }],
};

function responsesOf(route: ApiRoute): ZodOpenApiResponsesObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.content
        ? { content: Object.fromEntries(Object.entries(response.content).map(([type, schema]) => [type, { schema }])) }
        : {}),
      ...(response.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, description]) => [
                name,
                { description, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
    };
  }
  responses.default = {
    description: 'Any failure: the error body, with the HTTP status of its code (docs/contract.md, "Errors").',
    content: { 'application/json': { schema: ErrorBody } },
  };
  return responses as ZodOpenApiResponsesObject;
}

function operationOf(route: ApiRoute): ZodOpenApiOperationObject {
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: SECURITY[route.auth],
    ...(route.params || route.query || route.headers
      ? {
          requestParams: {
            ...(route.params ? { path: route.params } : {}),
            ...(route.query ? { query: route.query } : {}),
            ...(route.headers ? { header: route.headers } : {}),
          },
        }
      : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    ...(route.form
      ? { requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: route.form } } } }
      : {}),
    ...(route.multipart
      ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: route.multipart } } } }
      : {}),
    responses: responsesOf(route),
  };
}

export function buildApiDocument(routes: readonly ApiRoute[] = apiRoutes()): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operationOf(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'canvas-mcp backend API',
      version: PACKAGE_VERSION,
      description:
        "The canvas backend of canvas-mcp: the routes its MCP tool server forwards to, and the ones the people's canvas uses. " +
        'The MCP endpoint itself (POST /mcp) speaks JSON-RPC and is described by tools/list, not here.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: [
      { name: 'service', description: 'Health, readiness, metrics and this document.' },
      { name: 'canvas', description: 'Reading and writing a canvas.' },
      { name: 'runs', description: 'Node runs and their files.' },
      { name: 'people', description: 'Signed-in people: who am I, history, chat runs, agent tokens.' },
      {
        name: 'webhooks',
        description:
          'Signed webhooks: endpoints for run events and layout revisions, their deliveries (docs/api.md, "Webhooks").',
      },
      { name: 'auth', description: 'Signing in and out, and token introspection for gateways.' },
    ],
    components: {
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A backend token, or a gateway token with X-Canvas-On-Behalf-Of (docs/security.md).',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'canvas_mcp_session',
          description: 'A signed-in person (writes also need Origin and X-Requested-By).',
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: "The server's --metrics-token." },
      },
      // Shared shapes become components ($ref) wherever they appear.
      schemas: { CanvasNode, CanvasEdge, NodeRun, ErrorBody },
    },
    paths,
  });
}
