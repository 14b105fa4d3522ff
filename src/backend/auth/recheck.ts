import type { Store } from '../../store/store.js';
import type { CallerContext } from './caller.js';
import { tokenRejection } from './principal.js';

/**
 * Whether the credential behind a long-lived request (the change feed) is still good: a token not revoked or
 * expired since, a session not ended, not past its absolute end and not idle for `sessionIdleMs`. An open feed is not
 * use of the session (docs/security.md, "People"): watching is not acting, so a feed ends when the session
 * it was opened with goes idle, exactly when the next REST request would be refused.
 */
export async function credentialStillValid(
  store: Store,
  ctx: CallerContext,
  now: number,
  sessionIdleMs: number,
): Promise<boolean> {
  const { principal } = ctx;
  if (principal.kind === 'session') {
    const session = await store.sessions.getSession(principal.sessionId);
    return !!session && session.endedAt === null && session.expiresAt > now && session.lastSeenAt + sessionIdleMs > now;
  }
  if (tokenRejection(await store.tokens.getToken(principal.tokenId), now, [principal.kind]) !== null) return false;
  if (ctx.gateway && tokenRejection(await store.tokens.getToken(ctx.gateway.tokenId), now, ['gateway']) !== null)
    return false;
  return true;
}
