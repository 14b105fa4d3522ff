import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createBackend, type CanvasBackend } from '../backend/backend.js';
import { createBackendApp, errorResponse } from '../backend/http/app.js';
import type { BackendHttpEnv } from '../backend/http/http-env.js';
import { storeLocationOf, type ServeConfig } from '../config/index.js';
import { createAssetUrls } from '../mcp/asset-urls.js';
import { createCanvasApp } from '../mcp/canvas-app.js';
import { createDispatcher } from '../mcp/dispatcher.js';
import { createHttpBackendClient } from '../mcp/http-backend-client.js';
import { createMcpHttpHandler } from '../mcp/http-handler.js';
import { createInProcessClient } from '../mcp/in-process-client.js';
import { createTokenRateLimiter } from '../mcp/rate-limit.js';
import { assistantTools, connectorTools, enabledTools } from '../mcp/tool-registry.js';
import type { BackendClient } from '../mcp/backend-client.js';
import { CanvasError, toCanvasError } from '../shared/errors.js';
import { LOOPBACK_HOSTNAMES } from '../shared/hosts.js';
import { createLogger, type Logger } from '../shared/logger.js';
import { openStore, type Store } from '../store/store.js';
import type { RunEngine } from '../runs/engine.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../webhooks/dispatcher.js';
import { storeSeal } from '../webhooks/secrets.js';
import { seedDemo, type DemoCredentials } from './demo-seed.js';
import { assetsOf, runEngineOf, tightenDataDir } from './run-engine-setup.js';
import { runPricingOf } from '../runs/pricing.js';
import { createAssetSigner } from '../assets/url-signing.js';
import type { Assets } from '../assets/assets.js';
import { createAuthorizationServer, type AuthorizationServer } from '../oauth/authorization-server.js';
import { createConnectorGrants, type ConnectorGrants } from '../oauth/connector-grants.js';
import { createConnectorGate, type ConnectorGate } from '../oauth/mcp-gate.js';
import { PROTECTED_RESOURCE_PATHS, serveResourceMetadata } from '../oauth/resource-metadata.js';
import { planRun } from '../runs/operations.js';
import { runContextFor } from '../runs/submit.js';
import { WARM_AT_START, createBodyCheckPool } from '../validation/body-check-pool.js';
import { createFeedHub, type FeedHub } from '../backend/feed/feed-hub.js';
import { createPresence, type Presence } from '../backend/presence/presence.js';
import { createChatService, type ChatService } from '../agent/chat-service.js';
import { chatModelOf } from '../agent/model.js';
import { createWriteLimits } from '../backend/http/write-limits.js';
import { LIMITS } from '../contract/index.js';
import { changeLogBytes } from '../store/layout-writes/write-frame.js';
import { connectFeedSignals } from '../backend/feed/feed-signals.js';
import { createPeopleOperations } from '../backend/people-operations.js';
import type { SessionTimes } from '../store/session-store.js';
import { registerMetricsRoute, type MetricsAccess } from './metrics/metrics-route.js';
import { registerOpenApiRoute } from './openapi/openapi-route.js';
import { createServiceMetrics, type ServiceMetrics } from './metrics/service-metrics.js';

/**
 * The composition root: configuration in, a listening server out. Backend mode serves the REST API and /mcp on
 * one store; gateway mode (--backend-url) serves /mcp in front of a backend reached over HTTP.
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

export function sessionTimesOf(config: ServeConfig): SessionTimes {
  return { idleMs: config.sessionIdleHours * 3_600_000, absoluteMs: config.sessionMaxDays * 86_400_000 };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startServer(config: ServeConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? Date.now;

  let store: Store | null = null;
  let backend: CanvasBackend | null = null;
  let demo: DemoCredentials | null = null;
  let client: BackendClient;
  let engine: RunEngine | null = null;
  let webhooks: WebhookDispatcher | null = null;
  const pricing = runPricingOf(config);
  let assets: Assets | null = null;
  let connectors: { server: AuthorizationServer; grants: ConnectorGrants; gate: ConnectorGate } | null = null;
  let app: Hono<BackendHttpEnv> | Hono;
  const bodyChecks = createBodyCheckPool();
  let feed: FeedHub | null = null;
  let presence: Presence | null = null;
  let chat: ChatService | null = null;
  // Where this server's own agent (the canvas chat) reaches /mcp/: known once the server listens.
  let ownMcpUrl = '';
  let stopFeedSignals: (() => Promise<void>) | null = null;
  // Known once the server listens (port 0 picks one): sign-in cookies and CSRF checks need it.
  let publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : '';
  // Where /assets is served, for absolute asset URLs in tool results: this server, or in gateway mode the backend.
  let assetBase = config.backendUrl?.replace(/\/+$/, '') ?? config.publicUrl?.replace(/\/+$/, '') ?? '';
  const toolNames = enabledTools(config.enableHiddenTools).map((tool) => tool.name);
  const allowedHostnames = LOOPBACK_HOSTS.has(config.host) ? LOOPBACK_HOSTNAMES : null;
  const metricsAccess: MetricsAccess = {
    token: config.metricsToken,
    loopbackOnly: LOOPBACK_HOSTS.has(config.host),
    allowedHostnames,
  };
  // Made once the store and feed exist; the run engine reports to it through this variable.
  let metrics: ServiceMetrics;

  if (config.backendUrl) {
    client = createHttpBackendClient({ baseUrl: config.backendUrl, gatewayToken: config.backendToken! });
    metrics = createServiceMetrics({ store: null, feed: null, providerOf: null, tools: toolNames, logger });
    const gatewayMetrics = metrics;
    app = gatewayApp(client, (gateway) => registerMetricsRoute(gateway, gatewayMetrics, metricsAccess));
  } else {
    tightenDataDir(config.dataDir, logger);
    store = await openStore(storeLocationOf(config), { clock, logger });
    if (config.seedDemo && (await store.admin.isEmpty())) demo = await seedDemo(store);
    assets = assetsOf(config, store);
    const signer = createAssetSigner(await store.sharedSecret('asset_urls'), {
      ttlSeconds: config.assetUrlTtlSeconds,
      clock,
    });
    engine = runEngineOf(config, store, assets, logger, (run) => metrics.observeRunFinished(run));
    webhooks = createWebhookDispatcher({
      store,
      seal: await storeSeal(store)(),
      logger: logger.child({ component: 'webhooks' }),
      retryMs: config.webhookRetryMs,
      giveUpMs: config.webhookGiveUpMs,
      clock,
    });
    const runEngine = engine;
    backend = createBackend({
      store,
      clock,
      signer,
      runSignals: {
        runQueued: () => runEngine.runQueued(),
        cancelRequested: (runId) => runEngine.cancelRequested(runId),
      },
      pricing,
    });
    // Deleting a node asks its runs to stop: a worker of this process hears it at once.
    store.writes.onCommitted((write) => {
      for (const runId of write.runsToSignal) runEngine.cancelRequested(runId);
    });
    // A person's REST writes share /mcp's per-minute request setting, and may log at most 16 maximal writes' worth
    // of change-log bytes a minute (issue 17, defect 7).
    const writeLimits =
      config.rateLimitPerMinute > 0
        ? createWriteLimits({
            requestsPerMinute: config.rateLimitPerMinute,
            changeLogBytesPerMinute: 16 * LIMITS.changeLogBytes,
          })
        : null;
    if (writeLimits)
      store.writes.onCommitted((write) => writeLimits.spent(write.author, changeLogBytes(write.changes)));
    chat = createChatService({
      store,
      model: chatModelOf(config),
      logger,
      clock,
      mcpUrl: () => ownMcpUrl,
      limits: {
        maxSteps: config.chatMaxSteps,
        tokenBudget: config.chatTokenBudget,
        approvalMs: config.chatApprovalMinutes * 60_000,
        chunkTimeoutMs: 90_000,
      },
    });
    feed = createFeedHub(store, logger);
    presence = await createPresence(store, logger, clock);
    stopFeedSignals = await connectFeedSignals(store, feed, logger);
    metrics = createServiceMetrics({
      store,
      feed,
      providerOf: (operation) => runEngine.providerOf(operation),
      tools: toolNames,
      logger,
    });
    const backendMetrics = metrics;
    app = createBackendApp({
      backend,
      store,
      assets,
      signer,
      logger,
      clock,
      bodyLimitBytes: config.bodyLimitBytes,
      bodyChecks,
      feed,
      presence,
      oidc:
        config.oidcIssuer && config.oidcClientId
          ? {
              issuer: config.oidcIssuer,
              clientId: config.oidcClientId,
              clientSecret: config.oidcClientSecret,
              name: config.oidcName,
            }
          : null,
      feedHeartbeatMs: config.feedHeartbeatMs,
      writeLimits,
      chat,
      people: createPeopleOperations(store, clock),
      sessions: { times: sessionTimesOf(config), publicOrigin: () => publicOrigin },
      observeRequest: (outcome) => backendMetrics.observeRequest(outcome),
      connectors: () => connectors,
      serviceRoutes: (backendApp) => {
        registerMetricsRoute(backendApp, backendMetrics, metricsAccess);
        registerOpenApiRoute(backendApp);
      },
    });
    client = createInProcessClient(backend, clock);
  }

  const mcp = createMcpHttpHandler({
    client,
    dispatcher: createDispatcher({
      client,
      tools: enabledTools(config.enableHiddenTools),
      assistantTools: assistantTools(config.enableHiddenTools),
      connectorTools: connectorTools(config.enableHiddenTools),
      presence,
      logger,
      assetUrls: createAssetUrls(() => assetBase),
      canvasApp: createCanvasApp(() => (assetBase ? new URL(assetBase).origin : '')),
    }),
    logger,
    allowedOrigins: config.allowedOrigins,
    allowedHostnames,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimiter: config.rateLimitPerMinute > 0 ? createTokenRateLimiter(config.rateLimitPerMinute) : null,
    bodyChecks,
    observe: (outcome) => metrics.observeMcp(outcome),
    connectors: () => connectors?.gate ?? null,
  });
  const rest = getRequestListener(app.fetch);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    if (path === '/mcp' || path === '/mcp/') void mcp(req, res);
    else if (PROTECTED_RESOURCE_PATHS.has(path)) serveResourceMetadata(res, connectors?.server ?? null);
    else if (!connectors?.server.handle(req, res)) void rest(req, res);
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;

  let address: AddressInfo;
  try {
    address = await listen(server, config.port, config.host);
    await engine?.start();
    await webhooks?.start();
    if (WARM_AT_START) bodyChecks.warm();
  } catch (error) {
    server.close();
    await webhooks?.stop();
    await engine?.stop();
    await assets?.close();
    await store?.close();
    throw error;
  }
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = config.publicUrl?.replace(/\/+$/, '') ?? `http://${urlHost}:${address.port}`;
  publicOrigin = new URL(url).origin;
  // The chat's agent is a client like any other: it calls the listening socket, on loopback when bound to all interfaces.
  const ownHost = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : urlHost;
  ownMcpUrl = `http://${ownHost}:${address.port}/mcp/`;
  assetBase ||= url;
  // canvas-mcp is its own OAuth authorization server (issue 20): its issuer is the public origin, known only now.
  if (store && !config.backendUrl) {
    const oauthServer = await createAuthorizationServer({ store, origin: publicOrigin, logger, clock });
    connectors = {
      server: oauthServer,
      grants: createConnectorGrants({ store, server: oauthServer, clock }),
      gate: createConnectorGate({
        store,
        server: oauthServer,
        clock,
        estimate: async (grant, nodeId) => {
          const stored = await store!.layout.readNode(grant.projectId, grant.canvasId, nodeId);
          if (!stored) throw new CanvasError('not_found', `No node ${nodeId}.`);
          return pricing(
            planRun(stored.node, await runContextFor(store!, grant.projectId, grant.canvasId, stored.node)),
          );
        },
      }),
    };
  }
  // Commands run beside the server (admin login-link) print links at the address people open it at.
  await store
    ?.announceUrl(url)
    .catch((error: unknown) => logger.warn({ err: error }, 'could not record the announced URL'));
  chat?.start();
  logger.info(
    { url, mode: config.backendUrl ? 'gateway' : 'backend', store: store?.dialect ?? null },
    'canvas-mcp listening',
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    mcpUrl: `${url}/mcp/`,
    port: address.port,
    mode: config.backendUrl ? 'gateway' : 'backend',
    store,
    backend,
    demo,
    engine,
    feed,
    routes: app.routes.map((route) => ({ method: route.method, path: route.path })),
    config,
    close() {
      closing ??= (async () => {
        // Turns in flight stop first (each recorded as stopped), so their streams end before the server waits on them.
        await chat?.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Requests still running after 10 s are cut off rather than holding the shutdown forever.
          setTimeout(() => server.closeAllConnections(), 10_000).unref();
        });
        feed?.closeAll('shutdown');
        await stopFeedSignals?.();
        await presence?.close();
        await engine?.stop();
        await webhooks?.stop();
        connectors?.server.close();
        await assets?.close();
        await bodyChecks.close();
        metrics.close();
        await store?.close();
        logger.info('canvas-mcp stopped');
        logger.flush();
      })();
      return closing;
    },
  };
}
