import { createMiddleware } from 'hono/factory';
import { ON_BEHALF_OF_HEADER } from '../../contract/index.js';
import { hasTokenInQuery, parseBearer } from '../../shared/bearer.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { readIdentityHeaders, resolveCaller } from '../auth/caller.js';
import { authenticateSecret, principalOf, tokenRejection } from '../auth/principal.js';
import type { BackendHttpEnv } from './http-env.js';

/**
 * Bearer authentication for the backend API. Agent and backend tokens act as themselves; a gateway token (a
 * tool server running in front of this backend) acts only on behalf of the agent token it names in
 * X-Canvas-On-Behalf-Of, which it verified through introspection. The caller's own token never travels.
 */
export function authenticate(store: Store, clock: () => number, options: { gatewayOnly?: boolean } = {}) {
  return createMiddleware<BackendHttpEnv>(async function authenticateRequest(c, next) {
    if (hasTokenInQuery(new URL(c.req.url))) {
      throw new CanvasError('unauthenticated', 'Tokens are not accepted in the query string: send Authorization: Bearer <token>.');
    }
    const bearer = parseBearer(c.req.header('authorization'));
    if (!bearer.ok) throw new CanvasError('unauthenticated', bearer.reason);
    const now = clock();
    const presented = await authenticateSecret(store, bearer.token, now, ['agent', 'backend', 'gateway']);
    const onBehalfOf = c.req.header(ON_BEHALF_OF_HEADER);

    let principal = presented;
    let gateway;
    if (options.gatewayOnly) {
      if (presented.kind !== 'gateway') throw new CanvasError('forbidden', 'This route is for gateway tokens only.');
    } else if (presented.kind === 'gateway') {
      if (!onBehalfOf) {
        throw new CanvasError('forbidden', 'A gateway token acts only on behalf of an agent token: send X-Canvas-On-Behalf-Of.');
      }
      const agentToken = await store.admin.getToken(onBehalfOf);
      const rejection = tokenRejection(agentToken, now, ['agent']);
      if (rejection) throw new CanvasError('unauthenticated', rejection);
      principal = principalOf(agentToken!);
      gateway = presented;
    } else if (onBehalfOf) {
      throw new CanvasError('forbidden', 'Only a gateway token may act on behalf of another token.');
    }

    c.set('principal', principal);
    c.set('gateway', gateway);
    const identity = readIdentityHeaders((name) => c.req.header(name), c.req.raw.headers.keys());
    const log = c.get('log').child({
      token_id: principal.tokenId,
      ...(gateway ? { gateway_token_id: gateway.tokenId } : {}),
      ...(identity.agentRunId ? { agent_run_id: identity.agentRunId } : {}),
      ...(identity.actorSubject ? { actor: `${identity.actorIssuer ?? '?'}|${identity.actorSubject}` } : {}),
    });
    c.set('log', log);
    if (!options.gatewayOnly) c.set('caller', resolveCaller(principal, identity, c.get('requestId')));
    await next();
  });
}
