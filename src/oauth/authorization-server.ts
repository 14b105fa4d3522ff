import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Configuration, InteractionResults, KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { Logger } from '../shared/logger.js';
import { OAUTH_SCOPES, type OAuthGrantRecord } from '../store/oauth-grants.js';
import type { Store } from '../store/store.js';
import { loadOidcProvider, withOidcNotices } from './oidc-module.js';
import { SESSION_COOKIE } from '../backend/auth/session-cookie.js';
import type { Actor } from '../store/records.js';
import { accountIdOf } from './connector-grants.js';
import { createRefreshReplies } from './refresh-replies.js';
import { REGISTRATION_BYTES, TOKEN_REQUEST_BYTES, bufferedRequest, createOAuthGuards } from './request-guards.js';
import { sqlAdapterOf, sweepOAuthRecords } from './sql-adapter.js';

/** Marks the request that answers a refresh token's first use (set by serveOAuthRoute, read after the provider). */
const REFRESH_TOKEN = Symbol('refresh token of a first use');

/**
 * canvas-mcp as its own OAuth 2.1 authorization server for MCP clients (docs/security.md, "Connectors"),
 * built on oidc-provider, a certified OpenID Connect / OAuth 2.0 implementation: authorization code with PKCE (S256
 * only), refresh tokens rotated on every use (a replayed one ends the whole grant), access tokens bound to this
 * server's MCP endpoint (RFC 8707) and opaque (hashed by id at rest, never stored whole), dynamic client registration
 * (RFC 7591) and client ID metadata documents. We write only what is ours: the consent page (consent-routes.ts), the
 * grant model (a person's grant acts through an agent token and chat run of theirs), and the checks at /mcp.
 *
 * Mounted at /oauth (the issuer is `<public origin>/oauth`); its metadata also at the RFC 8414 path-inserted address.
 */

export const ISSUER_PATH = '/oauth';
export const INTERACTION_PATH = '/oauth-ui/interaction';
const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_SECONDS = 30 * 86_400;
const GRANT_SECONDS = 90 * 86_400;
/**
 * A rotated refresh token may be presented again this long (two requests of one client refreshing at once), and is
 * then answered with the pair its first use produced (src/oauth/refresh-replies.ts).
 */
const REFRESH_GRACE_SECONDS = 10;
const SWEEP_MS = 10 * 60_000;

export interface ConnectorAccess {
  grant: OAuthGrantRecord;
  scopes: ReadonlySet<string>;
}

export type AccessTokenCheck = { ok: true; access: ConnectorAccess } | { ok: false; reason: string };

export interface AuthorizationServer {
  readonly issuer: string;
  /** The protected resource: this server's MCP endpoint. */
  readonly resource: string;
  readonly resourceMetadataUrl: string;
  /** RFC 9728 protected resource metadata. */
  resourceMetadata(): Record<string, unknown>;
  /** Serves the authorization server's own routes; false when the path is not one of them. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Checks an access token presented at /mcp: live, for this resource, of a grant that still stands. */
  verifyAccessToken(token: string): Promise<AccessTokenCheck>;
  /** The consent page's view of an interaction (from its cookie), or null when it is gone. */
  interaction(req: IncomingMessage, res: ServerResponse): Promise<InteractionView | null>;
  /** Records the person's answer and answers where the browser goes next. */
  finishInteraction(req: IncomingMessage, res: ServerResponse, result: InteractionResults): Promise<string>;
  /** Saves an oidc-provider grant of these scopes for the client; answers its id. */
  saveGrant(
    accountId: string,
    clientId: string,
    scopes: readonly string[],
    requestedScopes: readonly string[],
    existingGrantId?: string,
  ): Promise<string>;
  /** Ends a grant: its codes, access and refresh tokens stop at once. */
  revokeGrant(grantId: string): Promise<void>;
  /** Ends the authorization server's sessions of a person (they signed out of canvas-mcp). */
  endSessionsOf(person: Actor): Promise<void>;
  close(): void;
}

export interface InteractionView {
  uid: string;
  clientId: string;
  clientName: string | null;
  requestedScopes: string[];
  grantId: string | null;
  /** Where the client asked to be sent back (the consent form's navigation may go there). */
  redirectUri: string | null;
}

export interface AuthorizationServerOptions {
  store: Store;
  /** The origin people and clients reach this server at (its public URL's origin). */
  origin: string;
  logger: Logger;
  clock?: () => number;
  /** The person a canvas-mcp session cookie belongs to, or null (ended, unknown). */
  /** The person a session cookie names, as the browser presenting it (its User-Agent) may use it. */
  personOfSession: (secret: string, device: string | undefined) => Promise<Actor | null>;
  /** A dynamically registered client that no grant has used for this long is deleted. */
  clientIdleMs: number;
}

async function keysOf(store: Store) {
  const cookieKey = await store.sharedSecret('oauth_cookie_key', () => randomBytes(32).toString('base64url'));
  const jwk = await store.sharedSecret('oauth_signing_key', async () => {
    const { exportJWK, generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    return JSON.stringify({
      ...(await exportJWK(privateKey)),
      use: 'sig',
      alg: 'ES256',
      kid: randomBytes(8).toString('hex'),
    });
  });
  return { cookieKeys: [cookieKey], jwks: { keys: [JSON.parse(jwk) as Record<string, unknown>] } };
}

export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const { store, logger } = options;
  const clock = options.clock ?? Date.now;
  const guards = createOAuthGuards();
  const refreshReplies = createRefreshReplies(store.driver, REFRESH_GRACE_SECONDS, clock);
  const issuer = `${options.origin}${ISSUER_PATH}`;
  const resource = `${options.origin}/mcp/`;

  /**
   * The provider, built at the first request that needs it: oidc-provider and what it imports (185 modules) took about
   * 0.3 s of every start, and a deployment no connector reaches never needs them (docs/performance.md, "Start"). A
   * failed build (the database away as its keys are read) is tried again by the next request.
   */
  let building: Promise<Built> | undefined;
  const provided = (): Promise<Built> =>
    (building ??= buildProvider().catch((error: unknown) => {
      building = undefined;
      throw error;
    }));

  async function buildProvider() {
    const { Provider, errors, interactionPolicy } = await loadOidcProvider(logger);
    /**
     * Silent re-authorization only for the person signed in here: an authorization request whose browser has no
     * canvas-mcp session, or one of another person than the authorization session's, shows the sign-in and the consent
     * again (a shared browser never hands one person's canvases to another's client).
     */
    const policy = interactionPolicy.base();
    policy.get('login')!.checks.add(
      new interactionPolicy.Check(
        'canvas_mcp_person',
        'the person signed in to canvas-mcp is not the one this authorization session belongs to',
        async (ctx) => {
          const secret = ctx.cookies.get(SESSION_COOKIE, { signed: false });
          const person = secret ? await options.personOfSession(secret, ctx.get('user-agent') || undefined) : null;
          return !person || accountIdOf(person) !== ctx.oidc.session?.accountId
            ? interactionPolicy.Check.REQUEST_PROMPT
            : interactionPolicy.Check.NO_NEED_TO_PROMPT;
        },
      ),
    );
    const resourceAliases = new Set([resource, resource.slice(0, -1)]);
    const supportedScopes: string[] = ['offline_access', ...OAUTH_SCOPES];
    const { cookieKeys, jwks } = await keysOf(store);

    const configuration: Configuration = {
      adapter: sqlAdapterOf(store.driver, { invalidGrant: errors.InvalidGrant, clock }),
      clients: [],
      findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
      // Dynamic registration checks a client's `scope` against this list: the resource scopes are listed here too.
      scopes: supportedScopes,
      responseTypes: ['code'],
      pkce: { required: () => true },
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'ES256',
      },
      clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
      // MCP clients do not ask for offline_access, and the default would issue no refresh token without it.
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      expiresWithSession: async () => false,
      features: {
        devInteractions: { enabled: false },
        dPoP: { enabled: false },
        pushedAuthorizationRequests: { enabled: false },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        introspection: { enabled: false },
        revocation: { enabled: true },
        registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
        clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
        resourceIndicators: {
          enabled: true,
          defaultResource: async (_ctx, _client, oneOf) => oneOf ?? resource,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx, indicator) => {
            if (!resourceAliases.has(indicator)) throw new errors.InvalidTarget();
            return {
              scope: OAUTH_SCOPES.join(' '),
              audience: resource,
              accessTokenFormat: 'opaque',
              accessTokenTTL: ACCESS_TOKEN_SECONDS,
            };
          },
        },
      } as Configuration['features'],
      interactions: { policy, url: async (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
      cookies: {
        keys: cookieKeys,
        long: { httpOnly: true, sameSite: 'lax' },
        short: { httpOnly: true, sameSite: 'lax' },
      },
      jwks: jwks as Configuration['jwks'],
      ttl: {
        AccessToken: ACCESS_TOKEN_SECONDS,
        AuthorizationCode: 60,
        RefreshToken: REFRESH_TOKEN_SECONDS,
        Grant: GRANT_SECONDS,
        Interaction: 600,
        Session: 14 * 86_400,
        IdToken: 3600,
      },
      renderError: async (ctx, out) => {
        ctx.type = 'json';
        ctx.body = out;
      },
    };

    const provider: Provider = await withOidcNotices(logger, () => new Provider(issuer, configuration));
    // Behind a proxy the public URL is what clients see; the provider builds its endpoint URLs from the issuer's origin.
    provider.proxy = true;
    // An authorization request without `scope` (the conformance suite sends none) asks for what the client registered.
    provider.use(async (ctx: KoaContextWithOIDC, next) => {
      if (ctx.method === 'GET' && ctx.path === '/auth' && !ctx.query.scope && typeof ctx.query.client_id === 'string') {
        const client = await provider.Client.find(ctx.query.client_id).catch(() => undefined);
        ctx.query = { ...ctx.query, scope: client?.scope ?? OAUTH_SCOPES.join(' ') };
      }
      await next();
    });
    // The first use of a refresh token within its grace keeps its answer, for a second use to get the same pair.
    provider.use(async (ctx: KoaContextWithOIDC, next) => {
      await next();
      const refreshToken = (ctx.req as { [REFRESH_TOKEN]?: string })[REFRESH_TOKEN];
      if (refreshToken === undefined) return;
      if (ctx.status === 200 && ctx.body) await refreshReplies.remember(refreshToken, JSON.stringify(ctx.body));
      else await refreshReplies.release(refreshToken);
    });
    provider.on('server_error', (_ctx: unknown, error: Error) =>
      logger.error({ err: error }, 'authorization server error'),
    );
    const callback = provider.callback();
    return { provider, errors, callback };
  }
  type Built = Awaited<ReturnType<typeof buildProvider>>;

  const sweep = setInterval(() => {
    sweepOAuthRecords(store.driver, clock(), options.clientIdleMs).catch((error: unknown) =>
      logger.warn({ err: error }, 'sweeping expired OAuth records failed'),
    );
  }, SWEEP_MS);
  sweep.unref();

  const resourceMetadataUrl = `${options.origin}/.well-known/oauth-protected-resource/mcp/`;

  /**
   * One request to /oauth/*: within the address's budget, registration and token bodies within their size, and a
   * refresh token used twice within its grace answered with its first answer; then the provider.
   */
  async function serveOAuthRoute(req: IncomingMessage, res: ServerResponse, url: string, route: string) {
    const path = route.split('?', 1)[0]!;
    if (!(await guards.admit(req, res, path))) return;
    let request = req;
    if (req.method === 'POST' && (path === '/reg' || path === '/token')) {
      const buffered = await bufferedRequest(req, res, path === '/reg' ? REGISTRATION_BYTES : TOKEN_REQUEST_BYTES);
      if (!buffered) return;
      request = buffered.request;
      const form = new URLSearchParams(buffered.body.toString('utf8'));
      const refreshToken = form.get('refresh_token');
      if (path === '/token' && form.get('grant_type') === 'refresh_token' && refreshToken) {
        const claimed = await refreshReplies.claim(refreshToken);
        if (typeof claimed === 'object' && claimed !== null) {
          res
            .writeHead(200, {
              'content-type': 'application/json; charset=utf-8',
              'cache-control': 'no-store',
              pragma: 'no-cache',
            })
            .end(claimed.body);
          return;
        }
        if (claimed === 'first') (request as { [REFRESH_TOKEN]?: string })[REFRESH_TOKEN] = refreshToken;
      }
    }
    const mounted = request as IncomingMessage & { originalUrl?: string; baseUrl?: string };
    mounted.originalUrl = url;
    mounted.baseUrl = ISSUER_PATH;
    request.url = route;
    const { callback } = await provided();
    await callback(request, res);
  }

  return {
    issuer,
    resource,
    resourceMetadataUrl,

    resourceMetadata: () => ({
      resource,
      authorization_servers: [issuer],
      scopes_supported: [...OAUTH_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'canvas-mcp',
      resource_documentation: `${options.origin}/api/openapi.json`,
    }),

    handle(req, res) {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0]!;
      const failed = (error: unknown) => {
        logger.error({ err: error }, 'authorization server request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'server_error' }));
      };
      if (path === ISSUER_PATH || path.startsWith(`${ISSUER_PATH}/`)) {
        void serveOAuthRoute(req, res, url, url.slice(ISSUER_PATH.length) || '/').catch(failed);
        return true;
      }
      const mounted = req as IncomingMessage & { originalUrl?: string; baseUrl?: string };
      // RFC 8414 (and OpenID discovery) with the issuer's path inserted after the well-known prefix.
      for (const known of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        if (path === `${known}${ISSUER_PATH}`) {
          req.url = known + url.slice(path.length);
          mounted.baseUrl = ISSUER_PATH;
          void provided()
            .then(({ callback }) => callback(req, res))
            .catch(failed);
          return true;
        }
      }
      return false;
    },

    async verifyAccessToken(value) {
      const { provider } = await provided();
      const token = await provider.AccessToken.find(value);
      // find() still answers a token up to its clock tolerance past expiry: the expiry is checked here.
      if (!token || token.isExpired) return { ok: false, reason: 'The access token is unknown, expired or revoked.' };
      if (token.aud !== resource) return { ok: false, reason: 'The access token is for another resource.' };
      const oidcGrant = token.grantId ? await provider.Grant.find(token.grantId) : undefined;
      if (!oidcGrant || oidcGrant.clientId !== token.clientId || oidcGrant.accountId !== token.accountId) {
        return { ok: false, reason: 'The grant of this access token has ended.' };
      }
      const grant = await store.grants.get(token.grantId!);
      if (!grant || grant.endedAt !== null) return { ok: false, reason: 'The grant of this access token has ended.' };
      // The token's scopes, never more than the person allowed (our record of the grant).
      const scopes = new Set(
        (token.scope ?? '').split(' ').filter((scope) => (grant.scopes as readonly string[]).includes(scope)),
      );
      return { ok: true, access: { grant, scopes } };
    },

    async interaction(req, res) {
      const { provider, errors } = await provided();
      try {
        const details = await provider.interactionDetails(req, res);
        const client = await provider.Client.find(String(details.params.client_id));
        return {
          uid: details.uid,
          clientId: String(details.params.client_id),
          clientName: client?.clientName ?? null,
          requestedScopes: String(details.params.scope ?? '')
            .split(' ')
            .filter(Boolean),
          grantId: details.grantId ?? null,
          redirectUri: typeof details.params.redirect_uri === 'string' ? details.params.redirect_uri : null,
        };
      } catch (error) {
        if (error instanceof errors.SessionNotFound) return null;
        throw error;
      }
    },

    async finishInteraction(req, res, result) {
      const { provider } = await provided();
      return provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
    },

    async saveGrant(accountId, clientId, scopes, requestedScopes, existingGrantId) {
      const { provider } = await provided();
      const grant =
        (existingGrantId ? await provider.Grant.find(existingGrantId) : undefined) ??
        new provider.Grant({ accountId, clientId });
      // What the person allowed is granted, for the resource (what access tokens carry) and, since every scope in the
      // provider's `scopes` also counts as an OpenID-layer one, there too; what the client asked for beyond it is
      // recorded as refused (oidc-provider asks for consent again until every requested scope is one or the other).
      // A client that asked for more gets less, and its token response says which scopes it got (RFC 6749, 3.3).
      const refused = requestedScopes.filter(
        (scope) => (OAUTH_SCOPES as readonly string[]).includes(scope) && !scopes.includes(scope),
      );
      grant.addResourceScope(resource, scopes.join(' '));
      grant.addOIDCScope([...scopes, ...requestedScopes.filter((scope) => scope === 'offline_access')].join(' '));
      if (refused.length > 0) {
        grant.rejectResourceScope(resource, refused.join(' '));
        grant.rejectOIDCScope(refused.join(' '));
      }
      return grant.save();
    },

    async endSessionsOf(person) {
      const pattern = `%"accountId":"${accountIdOf(person).replace(/[\\%_]/g, (char) => `\\${char}`)}"%`;
      await store.driver.run(`DELETE FROM oauth_records WHERE model = 'Session' AND payload LIKE ? ESCAPE '\\'`, [
        pattern,
      ]);
    },

    async revokeGrant(grantId) {
      const { provider } = await provided();
      await Promise.all([
        provider.AccessToken.revokeByGrantId(grantId),
        provider.RefreshToken.revokeByGrantId(grantId),
        provider.AuthorizationCode.revokeByGrantId(grantId),
        provider.Grant.adapter.destroy(grantId),
      ]);
    },

    close() {
      clearInterval(sweep);
    },
  };
}
