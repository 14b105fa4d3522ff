import { Hono } from 'hono';
import type { ServeConfig } from '../config/index.js';
import { errorResponse } from '../http/app.js';
import { registerMetricsRoute, type MetricsAccess } from '../http/routes/metrics.js';
import { createServiceMetrics } from '../http/service-metrics.js';
import type { BackendClient } from '../mcp/backend-client.js';
import { createHttpBackendClient } from '../mcp/http-backend-client.js';
import { CanvasError, toCanvasError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import type { Composed } from './composed.js';

/**
 * Gateway mode (`--backend-url`): /mcp in front of a canvas backend reached over HTTP, with /healthz, /readyz and
 * /metrics beside it. It holds no store: nothing to close but its metrics.
 */

function gatewayApp(client: BackendClient, serviceRoutes: (app: Hono) => void): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  serviceRoutes(app);
  app.get('/readyz', async (c) => {
    await client.ready();
    return c.json({ status: 'ready', backend: 'http' });
  });
  app.onError((error, c) => errorResponse(c as never, toCanvasError(error)));
  app.notFound(() => {
    throw new CanvasError('not_found', 'No such route: this gateway serves /mcp, /healthz, /readyz and /metrics.');
  });
  return app;
}

export function composeGateway(
  config: ServeConfig & { backendUrl: string },
  parts: {
    logger: Logger;
    tools: string[];
    metricsAccess: MetricsAccess;
    defer: (name: string, close: () => void) => void;
  },
): Composed {
  const client = createHttpBackendClient({ baseUrl: config.backendUrl, gatewayToken: config.backendToken! });
  const metrics = createServiceMetrics({
    store: null,
    feed: null,
    providerOf: null,
    tools: parts.tools,
    logger: parts.logger,
  });
  parts.defer('metrics', () => metrics.close());
  return {
    mode: 'gateway',
    app: gatewayApp(client, (gateway) => registerMetricsRoute(gateway, metrics, parts.metricsAccess)),
    client,
    metrics,
    presence: null,
    store: null,
    backend: null,
    demo: null,
    engine: null,
    feed: null,
    connectors: () => null,
    afterListen: async () => undefined,
  };
}
