import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { createChatService } from '../agent/chat-service.js';
import { chatModelOf } from '../agent/model.js';
import { createAssetSigner } from '../assets/url-signing.js';
import { createThumbnails } from '../assets/thumbnails.js';
import { createBoardImages } from '../render/board-images.js';
import { createFeedHub } from '../backend/feed/feed-hub.js';
import { connectFeedSignals } from '../backend/feed/feed-signals.js';
import { createMailer } from '../backend/team/mailer.js';
import { createServices } from '../backend/services.js';
import { createPresence } from '../backend/presence/presence.js';
import { createReviewRooms } from '../backend/review/review-rooms.js';
import { storeLocationOf, type ServeConfig } from '../config/index.js';
import { LIMITS } from '../contract/index.js';
import { createBackendApp } from '../http/app.js';
import { registerMetricsRoute, type MetricsAccess } from '../http/routes/metrics.js';
import { registerOpenApiRoute } from '../http/routes/openapi.js';
import { buildApiDocument } from '../http/openapi/api-document.js';
import { createServiceMetrics } from '../http/service-metrics.js';
import { createWriteLimits } from '../http/write-limits.js';
import { createInProcessClient } from '../mcp/in-process-client.js';
import { createAuthorizationServer } from '../oauth/authorization-server.js';
import { createConnectorGrants } from '../oauth/connector-grants.js';
import { createConnectorGate } from '../oauth/mcp-gate.js';
import { planRun } from '../runs/operations.js';
import type { RunPricing } from '../runs/pricing.js';
import type { RunModels } from '../runs/run-models.js';
import { runContextFor } from '../runs/submit.js';
import { CanvasError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { changeLogBytes } from '../store/layout-writes/write-frame.js';
import type { SessionTimes } from '../store/session-store.js';
import { openStore, type Store } from '../store/store.js';
import type { BodyCheckPool } from '../validation/body-check-pool.js';
import { createWebhookDispatcher } from '../webhooks/dispatcher.js';
import { storeSeal } from '../webhooks/secrets.js';
import type { CleanupStack } from './cleanup.js';
import type { Addresses, Composed, Connectors } from './composed.js';
import { seedDemo } from './demo-seed.js';
import { assetsOf, credentialsOf, exportEngineOf, runEngineOf, tightenDataDir } from './run-engine-setup.js';
import { createScriptReader } from '../storyboard/screenplay/read-pool.js';

/**
 * Backend mode: the store, the run engine, webhooks, the change feed, presence, the chat and the REST API, with /mcp
 * served in process. Each part registers its cleanup as it opens; what needs the listening address (the workers,
 * webhook deliveries, the OAuth issuer, the chat's own agent) starts in afterListen.
 */

export interface BackendParts {
  config: ServeConfig;
  logger: Logger;
  clock: () => number;
  cleanup: CleanupStack;
  addresses: Addresses;
  bodyChecks: BodyCheckPool;
  pricing: RunPricing;
  /** The models runs go to and what they accept (src/runs/run-models.ts). */
  models: RunModels;
  tools: string[];
  metricsAccess: MetricsAccess;
}

/**
 * Over https, the chat's own agent calls this server on loopback: it trusts exactly this server's certificate there
 * (whatever names it carries), and nothing else changes.
 */
function ownCertificateFetch(config: ServeConfig, cleanup: CleanupStack): typeof fetch | undefined {
  if (!config.tlsCert) return undefined;
  const agent = new Agent({ connect: { ca: readFileSync(config.tlsCert), checkServerIdentity: () => undefined } });
  cleanup.defer('own https agent', () => agent.close());
  // undici's own fetch (the Agent is undici's): its Response is the web Response the MCP client reads.
  const trusting = (input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as UndiciRequestInit), dispatcher: agent });
  return trusting as unknown as typeof fetch;
}

export function sessionTimesOf(config: ServeConfig): SessionTimes {
  return {
    idleMs: config.sessionIdleHours * 3_600_000,
    absoluteMs: config.sessionMaxDays * 86_400_000,
    rememberMs: config.sessionRememberDays * 86_400_000,
  };
}

/** The OAuth connectors: the issuer is the public origin, known only once the server listens. */
async function composeConnectors(store: Store, parts: BackendParts): Promise<Connectors> {
  const { logger, clock, pricing, models } = parts;
  const times = sessionTimesOf(parts.config);
  const server = await createAuthorizationServer({
    store,
    origin: parts.addresses.publicOrigin,
    logger,
    clock,
    personOfSession: async (secret, device) =>
      (await store.sessions.findSession(secret, times, device))?.person ?? null,
    clientIdleMs: parts.config.oauthClientIdleDays * 86_400_000,
  });
  parts.cleanup.defer('oauth', () => server.close());
  return {
    server,
    grants: createConnectorGrants({ store, server, clock }),
    gate: createConnectorGate({
      store,
      server,
      clock,
      estimate: async (grant, nodeId) => {
        const stored = await store.layout.readNode(grant.projectId, grant.canvasId, nodeId);
        if (!stored) throw new CanvasError('not_found', `No node ${nodeId}.`);
        const context = await runContextFor(store, grant.projectId, grant.canvasId, stored.node, { models });
        return pricing(planRun(stored.node, context));
      },
    }),
  };
}

export async function composeBackend(config: ServeConfig, parts: BackendParts): Promise<Composed> {
  const { logger, clock, cleanup, addresses } = parts;
  tightenDataDir(config.dataDir, logger);
  const store = await openStore(storeLocationOf(config), { clock, logger, feedBus: config.feedBus });
  cleanup.defer('store', () => store.close());
  const demo = config.seedDemo && (await store.projects.isEmpty()) ? await seedDemo(store) : null;
  const assets = await assetsOf(config, store);
  cleanup.defer('asset stores', () => assets.close());
  const signer = createAssetSigner(await store.sharedSecret('asset_urls'), {
    ttlSeconds: config.assetUrlTtlSeconds,
    clock,
  });

  const mailer = createMailer(config, logger);
  if (mailer) cleanup.defer('mailer', () => mailer.close());
  const feed = createFeedHub(store, logger);
  const metrics = createServiceMetrics({
    store,
    feed,
    providerOf: (operation) => engine.providerOf(operation),
    tools: parts.tools,
    logger,
  });
  cleanup.defer('metrics', () => metrics.close());
  const engine = runEngineOf(config, store, assets, logger, (run) => metrics.observeRunFinished(run));
  const exportEngine = exportEngineOf(config, store, assets, logger);
  const webhooks = createWebhookDispatcher({
    store,
    seal: await storeSeal(store)(),
    logger: logger.child({ component: 'webhooks' }),
    retryMs: config.webhookRetryMs,
    giveUpMs: config.webhookGiveUpMs,
    allowPrivateNetwork: config.webhooksPrivateNetwork,
    clock,
  });
  // Deleting a node asks its runs to stop: a worker of this process hears it at once.
  store.writes.onCommitted((write) => {
    for (const runId of write.runsToSignal) engine.cancelRequested(runId);
  });
  // A person's REST writes share /mcp's per-minute request setting, and may log at most 16 maximal writes' worth
  // of change-log bytes a minute (docs/security.md, "Budgets of the people's side").
  const writeLimits =
    config.rateLimitPerMinute > 0
      ? createWriteLimits({
          requestsPerMinute: config.rateLimitPerMinute,
          changeLogBytesPerMinute: 16 * LIMITS.changeLogBytes,
        })
      : null;
  if (writeLimits) store.writes.onCommitted((write) => writeLimits.spent(write.author, changeLogBytes(write.changes)));
  // The board as a picture and pictures' thumbnails: one cache of each for the process.
  const thumbnails = createThumbnails({ store, assets, clock });
  const boardImages = createBoardImages({ store, thumbnails });
  const chat = createChatService({
    store,
    model: chatModelOf(config),
    logger,
    clock,
    mcpUrl: () => addresses.ownMcpUrl,
    mcpFetch: ownCertificateFetch(config, cleanup),
    limits: {
      maxSteps: config.chatMaxSteps,
      tokenBudget: config.chatTokenBudget,
      personTokensPerDay: config.chatPersonTokensPerDay,
      projectTokensPerDay: config.chatProjectTokensPerDay,
      openConversationsPerPerson: config.chatOpenConversations,
      approvalMs: config.chatApprovalMinutes * 60_000,
      chunkTimeoutMs: 90_000,
    },
  });
  const scriptReader = createScriptReader({ deadlineMs: config.scriptReadSeconds * 1000 });
  cleanup.defer('script reader', () => scriptReader.close());
  const services = createServices({
    store,
    assets,
    signer,
    mailer,
    feed,
    clock,
    logger,
    publicOrigin: () => addresses.publicOrigin,
    dataDir: config.dataDir,
    runSignals: {
      runQueued: () => engine.runQueued(),
      cancelRequested: (runId) => engine.cancelRequested(runId),
    },
    exportSignals: () => exportEngine,
    pricing: parts.pricing,
    models: parts.models,
    chat: () => chat,
    scriptReader,
    boardImages,
    thumbnails,
    credentials: credentialsOf(config, store, assets, logger),
    settings: {
      exports: {
        maxMinutes: config.exportMaxMinutes,
        perPerson: config.exportsPerPerson,
        perProject: config.exportsPerProject,
      },
      uploads: {
        maxBytes: config.uploadMaxBytes,
        maxImagePixels: config.uploadImageMaxPixels,
        filesPerRequest: config.uploadFilesPerRequest,
        projectQuotaBytes: config.projectStorageQuotaBytes,
        bytesPerHour: config.uploadBytesPerHour,
        media: {
          concurrent: config.uploadMediaJobs,
          queued: config.uploadMediaQueue,
          perPerson: config.uploadMediaJobsPerPerson,
        },
      },
      drawings: {
        maxStrokes: config.drawingMaxStrokes,
        maxStrokePoints: config.drawingMaxStrokePoints,
        maxPoints: config.drawingMaxPoints,
        renderWidth: 1280,
      },
      webhooks: {
        maxEndpointsPerProject: config.webhookEndpointsPerProject,
        allowPrivateNetwork: config.webhooksPrivateNetwork,
      },
    },
  });
  const backend = services.canvas;
  cleanup.defer('change feeds', () => feed.closeAll('shutdown'));
  const presence = await createPresence(store, logger, clock);
  cleanup.defer('presence', () => presence.close());
  const rooms = await createReviewRooms(store, logger, clock);
  cleanup.defer('review rooms', () => rooms.close());
  const stopFeedSignals = await connectFeedSignals(store, feed, logger);
  cleanup.defer('feed signals', () => stopFeedSignals());

  let connectors: Connectors | null = null;
  const app = createBackendApp({
    services,
    store,
    signer,
    logger,
    clock,
    bodyLimitBytes: config.bodyLimitBytes,
    bodyChecks: parts.bodyChecks,
    feed,
    presence,
    rooms,
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
    mailer,
    writeLimits,
    chat,
    sessions: { times: sessionTimesOf(config), publicOrigin: () => addresses.publicOrigin },
    observeRequest: (outcome) => metrics.observeRequest(outcome),
    connectors: () => connectors,
    serviceRoutes: (backendApp) => {
      registerMetricsRoute(backendApp, metrics, parts.metricsAccess);
      registerOpenApiRoute(backendApp, buildApiDocument);
    },
  });

  return {
    mode: 'backend',
    app,
    client: createInProcessClient(services, clock),
    metrics,
    presence,
    store,
    backend,
    demo,
    engine,
    feed,
    connectors: () => connectors,
    async afterListen(_addresses, url) {
      await engine.start();
      cleanup.defer('run workers', () => engine.stop());
      await exportEngine.start();
      cleanup.defer('export workers', () => exportEngine.stop());
      await webhooks.start();
      cleanup.defer('webhook deliveries', () => webhooks.stop());
      connectors = await composeConnectors(store, parts);
      // Commands run beside the server (admin login-link) print links at the address people open it at.
      await store
        .announceUrl(url)
        .catch((error: unknown) => logger.warn({ err: error }, 'could not record the announced URL'));
      chat.start();
      // Turns in flight stop first when the server closes (each recorded as stopped), so their streams end before
      // the HTTP server waits on them: registered after the HTTP server, it runs before it.
      cleanup.defer('chat turns', () => chat.close());
      // The assistant's answers in threads post once their turns end: after the turns stop, before the store closes.
      cleanup.defer('assistant in threads', () => services.review.assistant.settled());
    },
  };
}
