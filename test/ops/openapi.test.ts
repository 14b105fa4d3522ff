import { compileErrors, validate } from '@readme/openapi-parser';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendHttpEnv } from '../../src/http/http-env.js';
import { registerWebRoutes } from '../../src/http/routes/web.js';
import { buildApiDocument, openApiPath } from '../../src/http/openapi/api-document.js';
import { apiRoutes } from '../../src/http/openapi/api-routes.js';
import { apiRoute, handle, undeclaredRoutes } from '../../src/http/route-declaration.js';
import { cli } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * The OpenAPI 3.1 document of the REST API, generated from the zod contract, is valid and lists exactly the routes the
 * server registers. The web canvas's pages (registerWebRoutes) are pages, not API: they are left out on both sides.
 * Each route is registered through its declaration (src/http/route-declaration.ts), whose schemas its handler parses
 * with and the document is built from; the app refuses to start with a route registered any other way.
 */

type Document = { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };

/** The document as a client receives it: plain JSON. */
function asJson<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function operationsOf(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** Concrete routes of a Hono route list: middleware and the catch-all 405 answers are registered as ALL. */
function concreteRoutes(routes: ReadonlyArray<{ method: string; path: string }>): string[] {
  return routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${openApiPath(route.path)}`);
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!);
  });
  afterAll(async () => server?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const document = asJson<Parameters<typeof validate>[0] & Document>(buildApiDocument());
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(document);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every route the server registers, and no other', () => {
    const pages = new Hono<BackendHttpEnv>();
    registerWebRoutes(pages);
    const webPages = new Set(concreteRoutes(pages.routes));
    const registered = [...new Set(concreteRoutes(server.server.routes))]
      .filter((route) => !webPages.has(route))
      .sort();
    expect(registered.length).toBeGreaterThan(20);
    expect(operationsOf(asJson<Document>(buildApiDocument())).sort()).toEqual(registered);
  });

  it('catches a route registered by hand, without a declaration', () => {
    const app = new Hono<BackendHttpEnv>();
    const declared = apiRoute({
      method: 'get',
      path: '/declared/:id',
      operationId: 'declared',
      summary: 'A declared route.',
      tag: 'service',
      auth: 'none',
      responses: { 204: { description: 'Nothing.' } },
    });
    handle(app, declared, (c) => c.body(null, 204));
    app.use('/declared/*', async (_c, next) => next());
    app.get('/by-hand', (c) => c.body(null, 204));
    expect(undeclaredRoutes(app.routes)).toEqual(['GET /by-hand']);
  });

  it('declares each path parameter of a route, and no other', () => {
    const mismatched = apiRoutes().filter((route) => {
      const inPath = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]).sort();
      return JSON.stringify(inPath) !== JSON.stringify(Object.keys(route.params?.shape ?? {}).sort());
    });
    expect(mismatched.map((route) => route.operationId)).toEqual([]);
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(asJson<Document>(buildApiDocument()).paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is served at /api/openapi.json without a token, and printed by canvas-mcp openapi', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const served = (await response.json()) as Document;
    expect(served).toEqual(asJson(buildApiDocument()));
    const printed = await cli(['openapi']);
    expect(printed.code).toBe(0);
    expect(printed.json).toEqual(served);
  }, 30_000);

  it('answers 405 to another method on its path', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`, { method: 'DELETE' });
    expect(response.status).toBe(405);
  });
});
