import type { Store } from '../../store/store.js';
import type { CallerContext } from './caller.js';
import { tokenRejection } from './principal.js';

/**
 * Whether the credential behind a long-lived request (the change feed) is still good: a token not revoked or
 * expired since, a session not ended. Rights on the project are checked again by the caller.
 */
export async function credentialStillValid(store: Store, ctx: CallerContext, now: number): Promise<boolean> {
  const { principal } = ctx;
  if (principal.kind === 'session') {
    const session = await store.sessions.getSession(principal.sessionId);
    return !!session && session.endedAt === null && session.expiresAt > now;
  }
  if (tokenRejection(await store.admin.getToken(principal.tokenId), now, [principal.kind]) !== null) return false;
  if (ctx.gateway && tokenRejection(await store.admin.getToken(ctx.gateway.tokenId), now, ['gateway']) !== null) return false;
  return true;
}
