import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { CanvasBackend } from '../backend/canvas/backend.js';
import type { FeedHub } from '../backend/feed/feed-hub.js';
import type { ServeConfig } from '../config/index.js';
import type { MetricsAccess } from '../http/routes/metrics.js';
import { createAssetUrls } from '../mcp/asset-urls.js';
import { createCanvasApp } from '../mcp/canvas-app.js';
import { createDispatcher } from '../mcp/dispatcher.js';
import { createMcpHttpHandler } from '../mcp/http-handler.js';
import { createTokenRateLimiter } from '../mcp/rate-limit.js';
import { assistantTools, connectorTools, toolSetTools, enabledTools } from '../mcp/tool-registry.js';
import { PROTECTED_RESOURCE_PATHS, serveResourceMetadata } from '../oauth/resource-metadata.js';
import { isDiscoveryPath, serveDiscovery } from '../mcp/server-card.js';
import type { RunEngine } from '../runs/engine.js';
import { runPricingOf } from '../runs/pricing.js';
import { runModelsOf } from '../runs/run-models.js';
import { LOOPBACK_HOSTNAMES } from '../shared/hosts.js';
import { createLogger, type Logger } from '../shared/logger.js';
import type { Store } from '../store/store.js';
import { WARM_AT_START, createBodyCheckPool, type BodyCheckPool } from '../validation/body-check-pool.js';
import { createCleanupStack } from './cleanup.js';
import { createListener, warnAboutReach } from './listener.js';
import { composeBackend } from './compose-backend.js';
import { composeGateway } from './compose-gateway.js';
import type { Addresses, Composed } from './composed.js';
import type { DemoCredentials } from './demo-seed.js';

export { sessionTimesOf } from './compose-backend.js';

/**
 * The composition root, top to bottom: configuration in, a listening server out. Backend mode serves the REST API
 * and /mcp on one store (compose-backend.ts); gateway mode (--backend-url) serves /mcp in front of a backend reached
 * over HTTP (compose-gateway.ts). This file adds what both share (the /mcp handler) and the HTTP server; every part
 * registers its cleanup as it opens, and one stack closes them in reverse, on a failed start and on close().
 */

export interface RunningServer {
  url: string;
  mcpUrl: string;
  port: number;
  mode: 'backend' | 'gateway';
  store: Store | null;
  backend: CanvasBackend | null;
  /** Set when this start seeded the demo on an empty store. */
  demo: DemoCredentials | null;
  engine: RunEngine | null;
  /** The change feed of this process (backend mode). */
  feed: FeedHub | null;
  /** The HTTP routes this server registered, as Hono lists them (methods and path templates). */
  routes: ReadonlyArray<{ method: string; path: string }>;
  config: ServeConfig;
  close(): Promise<void>;
}

export interface StartServerOptions {
  logger?: Logger;
  clock?: () => number;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stops taking connections; requests still running after 10 s are cut off rather than holding the shutdown. */
function closeHttpServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
  });
}

function mcpHandlerOf(
  config: ServeConfig,
  composed: Composed,
  addresses: Addresses,
  logger: Logger,
  bodyChecks: BodyCheckPool,
  allowedHostnames: readonly string[] | null,
) {
  const { client } = composed;
  return createMcpHttpHandler({
    client,
    dispatcher: createDispatcher({
      client,
      tools: enabledTools(config.enableHiddenTools),
      assistantTools: assistantTools(config.enableHiddenTools),
      connectorTools: connectorTools(config.enableHiddenTools),
      toolSetTools: (sets) => toolSetTools(sets, config.enableHiddenTools),
      iconOrigin: () => addresses.publicOrigin,
      // Servers of one deployment share the key, so a retry that reaches another one is still recognised.
      stateKey: composed.store ? () => composed.store!.sharedSecret('mrtr_request_state') : undefined,
      presence: composed.presence,
      logger,
      assetUrls: createAssetUrls(() => addresses.assetBase),
      canvasApp: createCanvasApp(() => (addresses.assetBase ? new URL(addresses.assetBase).origin : '')),
    }),
    logger,
    allowedOrigins: config.allowedOrigins,
    allowedHostnames,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimiter: config.rateLimitPerMinute > 0 ? createTokenRateLimiter(config.rateLimitPerMinute) : null,
    bodyChecks,
    observe: (outcome) => composed.metrics.observeMcp(outcome),
    connectors: () => composed.connectors()?.gate ?? null,
  });
}

export async function startServer(config: ServeConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? Date.now;
  const cleanup = createCleanupStack(logger);
  const addresses: Addresses = {
    publicOrigin: config.publicUrl ? new URL(config.publicUrl).origin : '',
    assetBase: config.backendUrl?.replace(/\/+$/, '') ?? config.publicUrl?.replace(/\/+$/, '') ?? '',
    ownMcpUrl: '',
  };
  const tools = enabledTools(config.enableHiddenTools).map((tool) => tool.name);
  const allowedHostnames = LOOPBACK_HOSTS.has(config.host) ? LOOPBACK_HOSTNAMES : null;
  const metricsAccess: MetricsAccess = {
    token: config.metricsToken,
    loopbackOnly: LOOPBACK_HOSTS.has(config.host),
    allowedHostnames,
  };

  try {
    const bodyChecks = createBodyCheckPool();
    cleanup.defer('body checks', () => bodyChecks.close());
    const composed = config.backendUrl
      ? composeGateway(
          { ...config, backendUrl: config.backendUrl },
          { logger, tools, metricsAccess, defer: cleanup.defer },
        )
      : await composeBackend(config, {
          config,
          logger,
          clock,
          cleanup,
          addresses,
          bodyChecks,
          pricing: runPricingOf(config),
          models: runModelsOf(config),
          tools,
          metricsAccess,
        });
    const mcp = mcpHandlerOf(config, composed, addresses, logger, bodyChecks, allowedHostnames);
    const rest = getRequestListener(composed.app.fetch);
    const server = createListener(config, (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?', 1)[0]!;
      const connectors = composed.connectors();
      if (path === '/mcp' || path === '/mcp/') void mcp(req, res);
      else if (PROTECTED_RESOURCE_PATHS.has(path)) serveResourceMetadata(res, connectors?.server ?? null);
      else if (isDiscoveryPath(path))
        serveDiscovery(req, res, path, addresses.publicOrigin, { oauth: connectors?.server !== undefined });
      else if (!connectors?.server.handle(req, res)) void rest(req, res);
    });
    server.requestTimeout = 30_000;
    server.headersTimeout = 15_000;
    // An idle connection is kept longer than a client or proxy keeps one (undici: the server's hint less 1 s; a load
    // balancer: 60 s), so the client, not the server, ends it: a server closing at the moment a client sends on the
    // same connection resets that request (docs/operations.md, "Timeouts").
    server.keepAliveTimeout = 65_000;

    const address = await listen(server, config.port, config.host);
    cleanup.defer('http server', () => closeHttpServer(server));
    const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const scheme = config.tlsCert ? 'https' : 'http';
    const url = config.publicUrl?.replace(/\/+$/, '') ?? `${scheme}://${urlHost}:${address.port}`;
    warnAboutReach(config, url, logger);
    addresses.publicOrigin = new URL(url).origin;
    // The chat's agent is a client like any other: it calls the listening socket, on loopback when bound to all
    // interfaces.
    const ownHost = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : urlHost;
    addresses.ownMcpUrl = `${scheme}://${ownHost}:${address.port}/mcp/`;
    addresses.assetBase ||= url;
    await composed.afterListen(addresses, url);
    if (WARM_AT_START) bodyChecks.warm();
    logger.info({ url, mode: composed.mode, store: composed.store?.dialect ?? null }, 'canvas-mcp listening');

    let closing: Promise<void> | undefined;
    return {
      url,
      mcpUrl: `${url}/mcp/`,
      port: address.port,
      mode: composed.mode,
      store: composed.store,
      backend: composed.backend,
      demo: composed.demo,
      engine: composed.engine,
      feed: composed.feed,
      routes: composed.app.routes.map((route) => ({ method: route.method, path: route.path })),
      config,
      close() {
        closing ??= (async () => {
          await cleanup.closeAll();
          logger.info('canvas-mcp stopped');
          logger.flush();
        })();
        return closing;
      },
    };
  } catch (error) {
    await cleanup.closeAll();
    throw error;
  }
}
