import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Env, Hono } from 'hono';
import { z } from 'zod';
import { parseBearer } from '../../shared/bearer.js';
import { hostAllowed } from '../../shared/hosts.js';
import { CanvasError } from '../../shared/errors.js';
import type { ServiceMetrics } from '../service-metrics.js';
import { apiRoute, handleService } from '../route-declaration.js';

/**
 * GET /metrics (Prometheus text format). Who may scrape (docs/operations.md, "Metrics"): with --metrics-token, only a
 * request with `Authorization: Bearer <that token>`, wherever the server binds; without one, anyone when the server
 * binds to loopback only, and nobody otherwise: a server reachable from the network never publishes its figures to
 * whoever asks.
 */

export const METRICS_PATH = '/metrics';

const METRICS = apiRoute({
  method: 'get',
  path: METRICS_PATH,
  operationId: 'metrics',
  summary: 'Prometheus metrics (open on loopback; else only with --metrics-token).',
  tag: 'service',
  auth: 'metrics',
  responses: {
    200: {
      description: 'The metrics.',
      content: { 'text/plain': z.string().meta({ description: 'Prometheus text exposition format 0.0.4.' }) },
    },
  },
});

export const METRICS_ROUTES = [METRICS];

export interface MetricsAccess {
  /** The scrape credential (--metrics-token), if any. */
  token: string | undefined;
  /** Whether the server binds to a loopback address only. */
  loopbackOnly: boolean;
  /** Bound to loopback: the only Host names answered, as at /mcp (a DNS-rebinding page must not read the figures). */
  allowedHostnames: readonly string[] | null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export function metricsAuthorizer(access: MetricsAccess): (authorization: string | undefined) => void {
  const expected = access.token === undefined ? null : digest(access.token);
  return function authorizeScrape(authorization) {
    if (expected === null) {
      if (access.loopbackOnly) return;
      throw new CanvasError(
        'not_found',
        'Metrics are not served on a listener beyond loopback without a scrape token: start the server with --metrics-token (CANVAS_MCP_METRICS_TOKEN).',
      );
    }
    const bearer = parseBearer(authorization);
    // Digests of equal length: the comparison takes the same time whatever was sent.
    if (!bearer.ok || !timingSafeEqual(digest(bearer.token), expected)) {
      throw new CanvasError('unauthenticated', 'Send Authorization: Bearer <the --metrics-token of this server>.');
    }
  };
}

export function registerMetricsRoute<E extends Env>(
  app: Hono<E>,
  metrics: ServiceMetrics,
  access: MetricsAccess,
): void {
  const authorize = metricsAuthorizer(access);
  handleService(app, METRICS, async (c: Context<E>) => {
    if (!hostAllowed(c.req.header('host'), access.allowedHostnames)) {
      throw new CanvasError('forbidden', `Host ${c.req.header('host') ?? '(none)'} is not allowed.`);
    }
    authorize(c.req.header('authorization'));
    const text = await metrics.registry.metrics();
    return c.body(text, 200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
  });
  app.all(METRICS_PATH, (c) => {
    throw new CanvasError('method_not_allowed', `${c.req.method} is not allowed on ${METRICS_PATH}.`);
  });
}
