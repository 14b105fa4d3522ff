import type { Context, Env, Hono, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { parseOrThrow } from '../shared/errors.js';
import type { BackendContext, BackendHttpEnv } from './http-env.js';
import { jsonBody, type NodeEdits } from './request-parsing.js';

/**
 * One REST route, declared once beside its handler: its method and path, what it takes (the contract's zod schemas)
 * and what it answers. The handler parses its request with these schemas (`handle` below) and the OpenAPI document is
 * assembled from the same declarations (openapi/api-document.ts), so the two cannot drift. Paths are written as Hono
 * registers them (`:param`).
 */

export type Auth = 'none' | 'caller' | 'gateway' | 'metrics' | 'asset';

export interface ApiResponse {
  description: string;
  /** Media type → schema; none for an empty body. */
  content?: Record<string, z.ZodType>;
  headers?: Record<string, string>;
}

export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  tag: 'service' | 'canvas' | 'runs' | 'people' | 'chat' | 'auth' | 'webhooks';
  /**
   * none: open; caller: a backend or gateway token, or a signed-in person's session; gateway: gateway tokens only;
   * asset: a signed URL, or a member's token or session.
   */
  auth: Auth;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** An HTML form body (application/x-www-form-urlencoded), for the pages people submit. */
  form?: z.ZodObject;
  /** A multipart/form-data body (files). */
  multipart?: z.ZodObject;
  responses: Record<string, ApiResponse>;
}

/** A route's declaration, with its schemas' own types kept for the handler's parsers. */
export function apiRoute<R extends ApiRoute>(route: R): R {
  return route;
}

type ParamsOf<R> = R extends { params: infer S extends z.ZodObject } ? z.output<S> : never;
type QueryOf<R> = R extends { query: infer S extends z.ZodObject } ? z.output<S> : never;
type BodyOf<R> = R extends { body: infer S extends z.ZodType } ? z.output<S> : never;

/**
 * What a handler reads from its request, parsed with its declaration's schemas when it asks, not before: a write checks
 * the caller's rights before it reads its body, and a route may check its path's first parameters before the rest.
 */
export interface RouteInput<R extends ApiRoute> {
  /** The path parameters (all, or the ones named), each parsed with its schema: a bad id is refused before any read. */
  params<K extends keyof ParamsOf<R>>(...names: K[]): Pick<ParamsOf<R>, K>;
  /** The whole query string, parsed with the declared schema (a strict one refuses parameters it does not name). */
  query(): QueryOf<R>;
  /** Only the query parameters the declared schema names, others ignored; issues are reported under `query.`. */
  namedQuery(): QueryOf<R>;
  /** The JSON body (src/http/request-parsing.ts: media type, UTF-8, large bodies checked on a worker thread). */
  body(edits?: NodeEdits): Promise<BodyOf<R>>;
}

function missing(route: ApiRoute, part: string): never {
  throw new Error(`${route.method.toUpperCase()} ${route.path} declares no ${part}.`);
}

function routeInput<R extends ApiRoute>(c: BackendContext, route: R): RouteInput<R> {
  return {
    params: (...names) => {
      const shape = route.params?.shape ?? missing(route, 'path parameters');
      const wanted = names.length > 0 ? names.map(String) : Object.keys(shape);
      const entries = wanted.map((name) => [name, parseOrThrow(shape[name]!, c.req.param(name), [name])]);
      return Object.fromEntries(entries) as Pick<ParamsOf<R>, (typeof names)[number]>;
    },
    query: () => parseOrThrow(route.query ?? missing(route, 'query'), c.req.query()) as QueryOf<R>,
    namedQuery: () => {
      const schema = route.query ?? missing(route, 'query');
      const named = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, c.req.query(name)]));
      return parseOrThrow(schema, named, ['query']) as QueryOf<R>;
    },
    body: (edits) => jsonBody(c, route.body ?? missing(route, 'JSON body'), edits) as Promise<BodyOf<R>>,
  };
}

/** Where a registered handler keeps the declaration it was registered for. */
const DECLARATION = Symbol('route declaration');

type Answer<E extends Env> = ((c: Context<E>) => Response | Promise<Response>) & { [DECLARATION]?: ApiRoute };

function register<E extends Env>(
  app: Hono<E>,
  route: ApiRoute,
  answer: (c: Context<E>) => Response | Promise<Response>,
  before: MiddlewareHandler<E>[],
): void {
  const declared: Answer<E> = Object.assign(answer, { [DECLARATION]: route });
  const method = route.method.toUpperCase();
  // One at a time is what Hono does with several handlers: each is added to the route in order.
  for (const middleware of before) app.on(method, route.path, middleware);
  app.on(method, route.path, declared);
}

/**
 * Registers the handler of a declared route at its method and path, behind `before` (a route's own middleware). The
 * handler gets the request's parsers for that declaration.
 */
export function handle<R extends ApiRoute>(
  app: Hono<BackendHttpEnv>,
  route: R,
  handler: (c: BackendContext, input: RouteInput<R>) => Response | Promise<Response>,
  options: { before?: MiddlewareHandler<BackendHttpEnv>[] } = {},
): void {
  register(app, route, (c) => handler(c, routeInput(c, route)), options.before ?? []);
}

/** Registers a service route (metrics, this document) that takes no input, on any Hono app (the gateway's too). */
export function handleService<E extends Env>(
  app: Hono<E>,
  route: ApiRoute,
  handler: (c: Context<E>) => Response | Promise<Response>,
): void {
  // Marked through a wrapper of its own: the function handed in is left as it is.
  register(app, route, (c) => handler(c), []);
}

type RegisteredRoute = { method: string; path: string; handler: unknown };

function declarationOf(handler: unknown): ApiRoute | undefined {
  return typeof handler === 'function' ? (handler as Answer<Env>)[DECLARATION] : undefined;
}

/** The declarations of the routes an app registered through `handle`, in the order it registered them. */
export function declaredRoutes(routes: readonly RegisteredRoute[]): ApiRoute[] {
  return routes.flatMap((route) => declarationOf(route.handler) ?? []);
}

/**
 * `METHOD path` of every concrete route an app registered by hand (Hono's `app.get` …), not through a declaration:
 * such a route would be served and never described. Middleware (`use`) and catch-alls (`all`) are ALL, not routes.
 */
export function undeclaredRoutes(routes: readonly RegisteredRoute[]): string[] {
  const declared = new Set(declaredRoutes(routes).map((route) => `${route.method.toUpperCase()} ${route.path}`));
  const concrete = routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`);
  return [...new Set(concrete)].filter((route) => !declared.has(route));
}
