import { IncomingMessage, type ServerResponse } from 'node:http';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * What the authorization server's routes may cost an anonymous caller (docs/security.md, "Connectors"): requests per
 * address per minute on every /oauth route, registrations per address per hour, and a size limit on the bodies of
 * registration and token requests. Counted per process (a deployment of several processes multiplies the budget by
 * their number; docs/operations.md says so).
 */

export const OAUTH_REQUESTS_PER_MINUTE = 300;
export const REGISTRATIONS_PER_HOUR = 60;
/** A client's registration metadata (names, redirect URIs, logos): generous for real clients, small for a store. */
export const REGISTRATION_BYTES = 16 * 1024;
export const TOKEN_REQUEST_BYTES = 16 * 1024;

export interface OAuthGuards {
  /** False when the caller is over a budget: the 429 is already answered. */
  admit(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
}

function answer(res: ServerResponse, status: number, error: string, description: string, headers = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers })
    .end(JSON.stringify({ error, error_description: description }));
}

export function createOAuthGuards(): OAuthGuards {
  const requests = new RateLimiterMemory({ points: OAUTH_REQUESTS_PER_MINUTE, duration: 60 });
  const registrations = new RateLimiterMemory({ points: REGISTRATIONS_PER_HOUR, duration: 3600 });
  async function take(limiter: RateLimiterMemory, key: string): Promise<number | null> {
    try {
      await limiter.consume(key);
      return null;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      throw refusal;
    }
  }
  return {
    async admit(req, res, path) {
      const address = req.socket.remoteAddress ?? 'unknown';
      const wait =
        (await take(requests, address)) ??
        (req.method === 'POST' && path === '/reg' ? await take(registrations, address) : null);
      if (wait === null) return true;
      answer(
        res,
        429,
        'slow_down',
        `Too many requests to the authorization server from this address: try again in ${wait} s.`,
        {
          'retry-after': String(wait),
        },
      );
      return false;
    },
  };
}

/**
 * Reads a request's body up to `limit` bytes, and answers a request that can be handed to the provider as if it were
 * unread (a real IncomingMessage on the same socket that yields the same bytes); null when the body is too large (the
 * 413 is already answered).
 */
export async function bufferedRequest(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
): Promise<{ request: IncomingMessage; body: Buffer } | null> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const tooLarge = () =>
    answer(res, 413, 'invalid_request', `The request body is larger than ${limit} bytes, the most this route accepts.`);
  if (declared > limit) {
    tooLarge();
    req.resume();
    return null;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    received += (chunk as Buffer).length;
    if (received > limit) {
      tooLarge();
      req.resume();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  const request = new IncomingMessage(req.socket);
  request.method = req.method;
  request.url = req.url;
  request.headers = req.headers;
  request.rawHeaders = req.rawHeaders;
  request.httpVersion = req.httpVersion;
  request.httpVersionMajor = req.httpVersionMajor;
  request.httpVersionMinor = req.httpVersionMinor;
  // Whole already: a request not marked complete destroys its socket when it ends (IncomingMessage._destroy).
  request.complete = true;
  request.push(body);
  request.push(null);
  return { request, body };
}
