import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * A per-token request budget at the tool server. In memory, per process: behind a load balancer with N
 * processes a token gets at most N times the limit (docs/operations.md).
 */
export interface TokenRateLimiter {
  /** Null when the request may proceed, else the milliseconds until it would. */
  take(tokenId: string): Promise<number | null>;
}

export function createTokenRateLimiter(requestsPerMinute: number): TokenRateLimiter {
  const limiter = new RateLimiterMemory({ points: requestsPerMinute, duration: 60 });
  return {
    async take(tokenId) {
      try {
        await limiter.consume(tokenId);
        return null;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(rejection.msBeforeNext, 1);
        throw rejection;
      }
    },
  };
}
