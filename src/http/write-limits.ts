import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RevisionAuthor } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { budgetKeyOf, type CallerContext } from '../backend/auth/caller.js';

/**
 * What one person (or one token acting for nobody) may write through the REST API: a number of write requests a minute,
 * like /mcp's per-token limit, and a number of change-log bytes a minute, since an edit or a revert of a few bytes may
 * log the whole bodies of large nodes. In memory, per process (docs/security.md).
 */

export interface WriteLimits {
  /** Before a write: refuses with rate_limited when the caller has used up either budget. */
  take(ctx: CallerContext): Promise<void>;
  /** After a commit: the change-log bytes it left count against its author. */
  spent(author: RevisionAuthor, bytes: number): void;
}

export interface WriteLimitOptions {
  requestsPerMinute: number;
  changeLogBytesPerMinute: number;
}

function authorKey(author: RevisionAuthor): string | null {
  if (author.kind === 'person') return `person\u0000${author.issuer}\u0000${author.subject}`;
  if (author.kind === 'agent') return `token\u0000${author.token_id}`;
  return null;
}

function limited(msBeforeNext: number, what: string): CanvasError {
  const retryAfterMs = Math.max(msBeforeNext, 1);
  return new CanvasError(
    'rate_limited',
    `Too many ${what} in the last minute; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
    {
      retry_after_ms: retryAfterMs,
    },
  );
}

export function createWriteLimits(options: WriteLimitOptions): WriteLimits {
  const requests = new RateLimiterMemory({ points: options.requestsPerMinute, duration: 60 });
  const bytes = new RateLimiterMemory({ points: options.changeLogBytesPerMinute, duration: 60 });
  return {
    async take(ctx) {
      const key = budgetKeyOf(ctx);
      const logged = await bytes.get(key);
      if (logged && logged.remainingPoints <= 0) throw limited(logged.msBeforeNext, 'bytes of changes written');
      try {
        await requests.consume(key);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw limited(rejection.msBeforeNext, 'writes');
        throw rejection;
      }
    },
    spent(author, count) {
      const key = authorKey(author);
      // A write's bytes are known only once it committed: they count against the budget of the next one.
      if (key && count > 0) void bytes.penalty(key, count);
    },
  };
}
