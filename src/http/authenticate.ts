import { createMiddleware } from 'hono/factory';
import { ON_BEHALF_OF_HEADER } from '../contract/index.js';
import { DUPLICATE_AUTHORIZATION, hasTokenInQuery, headerCount, parseBearer } from '../shared/bearer.js';
import { CanvasError } from '../shared/errors.js';
import type { Store } from '../store/store.js';
import { readIdentityHeaders, resolveCaller } from '../backend/auth/caller.js';
import {
  authenticateSecret,
  principalLogFields,
  principalOf,
  tokenRejection,
  type Principal,
  type TokenPrincipal,
} from '../backend/auth/principal.js';
import type { BackendContext, BackendHttpEnv } from './http-env.js';

/**
 * Authentication for the backend API (docs/security.md). Backend tokens act as themselves (or for the person they
 * were issued for); agent tokens are for /mcp only and are refused here. A gateway token (a tool server running in
 * front of this backend) acts only on behalf of the agent token it names in X-Canvas-On-Behalf-Of, which it
 * verified through introspection, and only within its own scope. Without an Authorization header, a signed-in
 * person's session cookie is accepted when the app was given a session reader.
 */

export type SessionReader = (c: BackendContext) => Promise<Principal | null>;

function rawHeadersOf(c: BackendContext): readonly string[] {
  return (c.env as { incoming?: { rawHeaders?: string[] } } | undefined)?.incoming?.rawHeaders ?? [];
}

export function authenticate(
  store: Store,
  clock: () => number,
  options: { gatewayOnly?: boolean; sessions?: SessionReader } = {},
) {
  return createMiddleware<BackendHttpEnv>(async function authenticateRequest(c, next) {
    if (hasTokenInQuery(new URL(c.req.url))) {
      throw new CanvasError(
        'unauthenticated',
        'Tokens are not accepted in the query string: send Authorization: Bearer <token>.',
      );
    }
    if (headerCount(rawHeadersOf(c), 'authorization') > 1)
      throw new CanvasError('unauthenticated', DUPLICATE_AUTHORIZATION);
    const header = c.req.header('authorization');
    const now = clock();

    let principal: Principal;
    let gateway: TokenPrincipal | null = null;
    const session = header === undefined && options.sessions ? await options.sessions(c) : null;
    if (session) {
      principal = session;
    } else {
      const bearer = parseBearer(header);
      if (!bearer.ok) throw new CanvasError('unauthenticated', bearer.reason);
      const presented = await authenticateSecret(store, bearer.token, now, ['backend', 'gateway']);
      const onBehalfOf = c.req.header(ON_BEHALF_OF_HEADER);
      principal = presented;
      if (options.gatewayOnly) {
        if (presented.kind !== 'gateway') throw new CanvasError('forbidden', 'This route is for gateway tokens only.');
      } else if (presented.kind === 'gateway') {
        if (!onBehalfOf) {
          throw new CanvasError(
            'forbidden',
            'A gateway token acts only on behalf of an agent token: send X-Canvas-On-Behalf-Of.',
          );
        }
        const agentToken = await store.tokens.getToken(onBehalfOf);
        const rejection = tokenRejection(agentToken, now, ['agent']);
        if (rejection) throw new CanvasError('unauthenticated', rejection);
        principal = principalOf(agentToken!);
        gateway = presented;
      } else if (onBehalfOf) {
        throw new CanvasError('forbidden', 'Only a gateway token may act on behalf of another token.');
      }
    }

    c.set('principal', principal);
    c.set('gateway', gateway ?? undefined);
    const identity = readIdentityHeaders((name) => c.req.header(name), c.req.raw.headers.keys());
    const log = c.get('log').child({
      ...principalLogFields(principal),
      ...(gateway ? { gateway_token_id: gateway.tokenId } : {}),
      ...(identity.agentRunId ? { agent_run_id: identity.agentRunId } : {}),
      ...(identity.actorSubject ? { actor: `${identity.actorIssuer ?? '?'}|${identity.actorSubject}` } : {}),
    });
    c.set('log', log);
    if (!options.gatewayOnly) c.set('caller', resolveCaller(principal, identity, c.get('requestId'), gateway));
    await next();
  });
}
