import { CanvasError } from '../../shared/errors.js';
import type { CallerContext } from '../auth/caller.js';

/**
 * How many change feeds one session, and one person or token, may hold open at once: each open feed costs the server a
 * socket, a subscriber and a replay, so one caller cannot open them by the hundred.
 */

export interface FeedQuota {
  /** Counts a feed the caller opens; refuses with rate_limited past a cap. Returns its release. */
  open(ctx: CallerContext): () => void;
}

function keysOf(ctx: CallerContext): { session: string | null; caller: string } {
  const { principal } = ctx;
  if (principal.kind === 'session') {
    return {
      session: principal.sessionId,
      caller: `person\u0000${principal.person.issuer}\u0000${principal.person.subject}`,
    };
  }
  if (ctx.actor) return { session: null, caller: `person\u0000${ctx.actor.issuer}\u0000${ctx.actor.subject}` };
  return { session: null, caller: `token\u0000${principal.tokenId}` };
}

export function createFeedQuota(limits: { perSession: number; perCaller: number }): FeedQuota {
  const open = new Map<string, number>();
  const count = (key: string) => open.get(key) ?? 0;
  const add = (key: string, delta: number) => {
    const next = count(key) + delta;
    if (next <= 0) open.delete(key);
    else open.set(key, next);
  };
  return {
    open(ctx) {
      const { session, caller } = keysOf(ctx);
      const sessionKey = session === null ? null : `session\u0000${session}`;
      if (sessionKey !== null && count(sessionKey) >= limits.perSession) {
        throw new CanvasError(
          'rate_limited',
          `This session already has ${limits.perSession} change feeds open: close another canvas tab.`,
          {
            max_feeds_per_session: limits.perSession,
          },
        );
      }
      if (count(caller) >= limits.perCaller) {
        throw new CanvasError(
          'rate_limited',
          `${limits.perCaller} change feeds are already open for this person or token: close another first.`,
          {
            max_feeds_per_caller: limits.perCaller,
          },
        );
      }
      if (sessionKey !== null) add(sessionKey, 1);
      add(caller, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (sessionKey !== null) add(sessionKey, -1);
        add(caller, -1);
      };
    },
  };
}
