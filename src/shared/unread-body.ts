import type { IncomingMessage } from 'node:http';

/**
 * A request refused before its body is read (its length over the limit, no valid token, a rate limit) still has bytes
 * on the way. Closing the connection on them makes the kernel answer those bytes with a reset, and a reset that
 * reaches the client before it has read the answer throws the answer away: the client sees "connection reset" in
 * place of 413 or 401. So the server reads and drops the rest first, within these bounds, and the connection stays
 * usable; past them it answers and closes, and only a client that sent more than this can meet the reset.
 */
export interface UnreadBodyBounds {
  maxBytes: number;
  maxMs: number;
}

export const UNREAD_BODY_BOUNDS: UnreadBodyBounds = { maxBytes: 16 * 1024 * 1024, maxMs: 10_000 };

/**
 * Reads and drops what is left of `req`'s body. True once the whole body arrived (the connection can be kept), false
 * when it announced or sent more than `maxBytes`, did not arrive within `maxMs`, failed, or is being read by someone
 * else (the caller then answers with `connection: close`).
 */
export function dropUnreadBody(req: IncomingMessage, bounds: UnreadBodyBounds = UNREAD_BODY_BOUNDS): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (announcedPastBounds(req, bounds)) return Promise.resolve(false);
  // A reader already attached (a body stream half read when a limit refused it) would race this one for the bytes.
  if (req.listenerCount('data') > 0 || req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (kept: boolean) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (!kept) req.pause();
      resolve(kept);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > bounds.maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), bounds.maxMs);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.resume();
  });
}

function announcedPastBounds(req: IncomingMessage, bounds: UnreadBodyBounds): boolean {
  const announced = Number(req.headers['content-length']);
  return Number.isFinite(announced) && announced > bounds.maxBytes;
}

/**
 * The same for a body a web framework wraps in a stream (Hono's Node adapter reads the request into a ReadableStream
 * from the start): the rest is read through that stream, unless someone holds it already.
 */
export async function dropUnreadStream(
  req: IncomingMessage,
  body: ReadableStream<Uint8Array> | null,
  bounds: UnreadBodyBounds = UNREAD_BODY_BOUNDS,
): Promise<boolean> {
  if (req.complete) return true;
  if (body === null || body.locked || announcedPastBounds(req, bounds)) return false;
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), bounds.maxMs);
  });
  try {
    let received = 0;
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') return false;
      if (next.done) return true;
      received += next.value.byteLength;
      if (received > bounds.maxBytes) return false;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    // Not cancelled: cancelling would destroy the request's socket before its answer is written.
    reader.releaseLock();
  }
}
