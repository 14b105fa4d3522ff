import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { REQUEST_ID_HEADER, type ErrorBody } from '../contract/index.js';
import { CanvasError, toCanvasError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import { dropUnreadStream } from '../shared/unread-body.js';
import type { Store } from '../store/store.js';
import type { Services } from '../backend/services.js';
import type { AssetSigner } from '../assets/url-signing.js';
import type { BodyCheckPool } from '../validation/body-check-pool.js';
import { registerAssetRoutes } from './routes/assets.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import type { ConnectorGrants } from '../oauth/connector-grants.js';
import { registerConnectionRoutes } from './routes/connections.js';
import { registerConsentRoutes } from './routes/consent.js';
import { authenticate } from './authenticate.js';
import { registerCanvasRoutes } from './routes/canvas.js';
import { registerRunRoutes } from './routes/runs.js';
import type { BackendContext, BackendHttpEnv } from './http-env.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerFeedRoutes } from './routes/feed.js';
import { registerPeopleRoutes } from './routes/people.js';
import { isPicturePath, registerPeoplePictureRoutes } from './routes/people-pictures.js';
import { sessionReader } from './session-auth.js';
import type { ChatService } from '../agent/chat-service.js';
import { registerChatRoutes } from './routes/chat.js';
import type { WriteLimits } from './write-limits.js';
import type { Mailer } from '../backend/team/mailer.js';
import { registerWebRoutes } from './routes/web.js';
import type { Presence } from '../backend/presence/presence.js';
import type { ReviewRooms } from '../backend/review/review-rooms.js';
import { registerReviewRoomRoutes } from './routes/review-room.js';
import { registerSharedRoomRoute } from './routes/shared-room.js';
import { registerOidcRoutes, type OidcSettings } from './routes/oidc.js';
import { isPresencePath, registerPresenceRoutes } from './routes/presence.js';
import { registerTeamRoutes } from './routes/team.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { isUploadPath, registerUploadRoutes } from './routes/uploads.js';
import { registerShotListRoutes } from './routes/shot-list.js';
import { registerContinuityRoutes } from './routes/continuity.js';
import { registerDrawingRoutes } from './routes/drawings.js';
import { isScriptImportPath, registerScriptImportRoutes } from './routes/script-import.js';
import { isConformPath, registerConformRoutes } from './routes/conform.js';
import { registerTemplateRoutes } from './routes/templates.js';
import { registerTidyRoutes } from './routes/tidy.js';
import { registerBoardImageRoutes } from './routes/board-image.js';
import { registerCheckpointRoutes } from './routes/checkpoints.js';
import { registerExportRoutes } from './routes/exports.js';
import { registerRunApprovalRoutes } from './routes/run-approvals.js';
import { registerShareLinkRoutes, registerSharedRoute } from './routes/share-links.js';
import { registerReviewRoutes } from './routes/review.js';
import { registerGuestReviewRoutes } from './routes/review-guests.js';
import { registerMarkedFrameRoutes } from './routes/marked-frames.js';
import { registerElementRoutes } from './routes/elements.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerIntrospectRoute } from './routes/introspect.js';
import { declaredRoutes, undeclaredRoutes } from './route-declaration.js';
import { routeTemplateOf, type RequestObserver } from './request-outcome.js';
import type { FeedHub } from '../backend/feed/feed-hub.js';
import type { SessionTimes } from '../store/session-store.js';

export interface BackendAppOptions {
  /** Every domain service of the process, built once (src/backend/services.ts): the app registers their routes. */
  services: Services;
  store: Store;
  /** Signs and checks asset URLs (src/assets/url-signing.ts). */
  signer: AssetSigner;
  logger: Logger;
  clock?: () => number;
  bodyLimitBytes?: number;
  bodyChecks: BodyCheckPool;
  feed: FeedHub;
  /** OpenID Connect sign-in beside links; absent: links only. */
  oidc?: OidcSettings | null;
  /** Who is on each canvas; absent: no presence routes or events. */
  presence?: Presence;
  /** The review rooms (docs/review.md, "The review room"). */
  rooms: ReviewRooms;
  /** How often an idle change feed gets a comment line (default 15 s). */
  feedHeartbeatMs?: number;
  sessions: { times: SessionTimes; publicOrigin: () => string };
  /** Told the outcome of every request (metrics). */
  observeRequest?: RequestObserver;
  /** The canvas chat (docs/chat.md). */
  chat?: ChatService;
  /** Per-person budgets of REST writes (requests and change-log bytes a minute); none: unlimited. */
  writeLimits?: WriteLimits | null;
  /** Routes of the running service that are not the canvas API (/metrics, /api/openapi.json), registered first. */
  serviceRoutes?: (app: Hono<BackendHttpEnv>) => void;
  /** E-mail through the operator's SMTP relay (sign-in links), when configured. */
  mailer?: Mailer | null;
  /** OAuth connectors (src/oauth/): their consent page and connections, once the authorization server runs. */
  connectors?: () => { server: AuthorizationServer; grants: ConnectorGrants } | null;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** One error body for every failure: { error: { code, message, details? } } with the code's HTTP status. */
export function errorResponse(c: BackendContext, error: CanvasError): Response {
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      ...(Object.keys(error.details).length ? { details: error.details } : {}),
    },
  };
  if (error.code === 'unauthenticated') c.header('www-authenticate', 'Bearer');
  const retryAfterMs = error.details.retry_after_ms;
  // A full line of work (unavailable) says when to come back as a rate limit does.
  if ((error.code === 'rate_limited' || error.code === 'unavailable') && typeof retryAfterMs === 'number')
    c.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
  return c.json(body, error.status as 400);
}

export function createBackendApp(options: BackendAppOptions): Hono<BackendHttpEnv> {
  const { services, store, logger } = options;
  const backend = services.canvas;
  const clock = options.clock ?? Date.now;
  const app = new Hono<BackendHttpEnv>();

  app.use('*', async function requestContext(c, next) {
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    c.set('requestId', requestId);
    c.set('bodyChecks', options.bodyChecks);
    c.set('log', logger.child({ request_id: requestId }));
    c.header(REQUEST_ID_HEADER, requestId);
    await next();
    // Answered before the body arrived (a refusal checked first): the rest is read and dropped before the answer
    // goes, or the close would reset the answer away (src/shared/unread-body.ts); past its bounds the connection closes.
    const nodeRequest = c.env?.incoming;
    if (nodeRequest && !nodeRequest.complete && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      if (!(await dropUnreadStream(nodeRequest, c.req.raw.body))) c.header('connection', 'close');
    }
    const seconds = (performance.now() - started) / 1000;
    const route = routeTemplateOf(c);
    const errorCode = c.get('errorCode') ?? null;
    // token_id, agent_run_id and actor are on the logger once the caller is known (authenticate).
    c.get('log').info(
      {
        method: c.req.method,
        path: c.req.path,
        route,
        status: c.res.status,
        ...(errorCode ? { error_code: errorCode } : {}),
        duration_ms: Math.round(seconds * 1000),
      },
      'request',
    );
    options.observeRequest?.({ method: c.req.method, route, status: c.res.status, errorCode, seconds });
  });

  app.onError((error, c) => {
    const canvasError = toCanvasError(error);
    c.set('errorCode', canvasError.code);
    if (canvasError.code === 'internal') c.get('log').error({ err: error }, 'unexpected error');
    return errorResponse(c, canvasError);
  });

  registerHealthRoutes(app, store);

  const apiBodyLimit = bodyLimit({
    maxSize: options.bodyLimitBytes ?? 1024 * 1024,
    onError: () => {
      throw new CanvasError(
        'payload_too_large',
        `The request body exceeds ${options.bodyLimitBytes ?? 1024 * 1024} bytes.`,
      );
    },
  });
  // Uploads stream to disk under their own per-file limit (src/http/routes/uploads.ts); a script import and a conform
  // have their own.
  app.use('/api/*', (c, next) =>
    isUploadPath(c.req.path) || isScriptImportPath(c.req.path) || isConformPath(c.req.path) || isPicturePath(c.req.path)
      ? next()
      : apiBodyLimit(c, next),
  );

  options.serviceRoutes?.(app);

  registerIntrospectRoute(app, store, clock);

  const sessions = sessionReader({ store, times: options.sessions.times, publicOrigin: options.sessions.publicOrigin });
  const signedIn = authenticate(store, clock, { sessions });
  registerAssetRoutes(app, {
    store,
    assets: services.assets,
    signer: options.signer,
    authenticate: signedIn,
    thumbnails: services.thumbnails,
  });
  registerSharedRoute(app, services.shareLinks);
  registerGuestReviewRoutes(app, services.review);
  registerSharedRoomRoute(app, {
    links: services.shareLinks,
    rooms: options.rooms,
    heartbeatMs: options.feedHeartbeatMs,
  });
  const secureCookie = () => options.sessions.publicOrigin().startsWith('https:');
  app.use('/auth/logout', signedIn);
  app.use(
    '/auth/login',
    bodyLimit({
      maxSize: 4096,
      onError: () => {
        throw new CanvasError('payload_too_large', 'A sign-in form is at most 4096 bytes.');
      },
    }),
  );
  app.use(
    '/invite',
    bodyLimit({
      maxSize: 4096,
      onError: () => {
        throw new CanvasError('payload_too_large', 'An invitation form is at most 4096 bytes.');
      },
    }),
  );
  const connectors = options.connectors ?? (() => null);
  const authOptions = {
    store,
    times: options.sessions.times,
    secureCookie,
    publicOrigin: options.sessions.publicOrigin,
    mailer: options.mailer ?? null,
  };
  registerAuthRoutes(app, {
    ...authOptions,
    signedOut: async (person) => {
      await connectors()?.server.endSessionsOf(person);
    },
  });
  registerOidcRoutes(app, options.oidc ?? null, { ...authOptions, logger });
  registerConsentRoutes(app, {
    store,
    times: options.sessions.times,
    publicOrigin: options.sessions.publicOrigin,
    connectors,
  });
  app.use('/api/v1/projects', signedIn);
  app.use('/api/v1/projects/*', signedIn);
  app.use('/api/v1/connections/*', signedIn);
  for (const prefix of [
    '/api/v1/zone/*',
    '/api/v1/me',
    '/api/v1/me/*',
    '/api/v1/pictures/*',
    '/api/v1/tokens',
    '/api/v1/tokens/*',
    '/api/v1/chat/*',
    '/api/v1/inbox',
    '/api/v1/inbox/*',
    '/api/v2/*',
  ])
    app.use(prefix, signedIn);
  const writeLimits = options.writeLimits;
  if (writeLimits) {
    app.use('/api/*', async function limitWrites(c, next) {
      const caller = c.get('caller');
      // Presence reports change nothing stored: a cursor moving must not spend the person's write budget.
      if (caller && !SAFE_METHODS.has(c.req.method) && !isPresencePath(c.req.path)) await writeLimits.take(caller);
      await next();
    });
  }
  registerCanvasRoutes(app, backend);
  registerRunRoutes(app, backend);
  registerUploadRoutes(app, services.uploads, services.directUploads);
  registerShotListRoutes(app, store);
  registerDrawingRoutes(app, services.drawings);
  registerContinuityRoutes(app, services.continuity);
  registerScriptImportRoutes(app, services.scriptImport);
  registerConformRoutes(app, services.conform);
  registerTemplateRoutes(app, services.templates);
  registerElementRoutes(app, services.elements);
  registerTidyRoutes(app, backend);
  registerBoardImageRoutes(app, backend, services.boardImages);
  registerCheckpointRoutes(app, services.checkpoints);
  registerExportRoutes(app, services.exports);
  registerRunApprovalRoutes(app, services.runApprovals);
  registerShareLinkRoutes(app, services.shareLinks);
  registerReviewRoutes(app, services.review);
  registerReviewRoomRoutes(app, { store, rooms: options.rooms });
  registerMarkedFrameRoutes(app, services.markedFrames);
  registerPeopleRoutes(app, services.people);
  registerPeoplePictureRoutes(app, services.pictures, services.uploads);
  registerSessionRoutes(app, { store, times: options.sessions.times });
  registerConnectionRoutes(app, { store, grants: () => connectors()?.grants ?? null });
  registerTeamRoutes(app, services.team, { ...authOptions, oidcName: options.oidc?.name ?? null });
  registerWebhookRoutes(app, services.webhooks);
  if (options.chat) registerChatRoutes(app, options.chat);
  registerFeedRoutes(app, {
    store,
    hub: options.feed,
    clock,
    heartbeatMs: options.feedHeartbeatMs,
    sessionIdleMs: options.sessions.times.idleMs,
    presence: options.presence ?? null,
    rooms: options.rooms,
  });
  if (options.presence) registerPresenceRoutes(app, { store, presence: options.presence, rooms: options.rooms });

  // Every API route is registered through its declaration (src/http/route-declaration.ts), so the OpenAPI document
  // describes it: one registered by hand would be served undescribed. The web canvas's pages, next, are not API.
  const undeclared = undeclaredRoutes(app.routes);
  if (undeclared.length > 0) throw new Error(`Routes registered without a declaration: ${undeclared.join(', ')}.`);
  const apiPaths = new Set(declaredRoutes(app.routes).map((route) => route.path));
  registerWebRoutes(app);

  // Another method on a path the API serves is 405, an unknown path 404 (docs/api.md).
  for (const path of apiPaths) {
    app.all(path, (c) => {
      throw new CanvasError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}.`);
    });
  }
  app.notFound(() => {
    throw new CanvasError('not_found', 'No such route.');
  });
  return app;
}
