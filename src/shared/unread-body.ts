import type { IncomingMessage } from 'node:http';
import { yieldToIo } from './event-loop.js';

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
  /** A client that stopped sending (it waits for the answer first) is answered after this long without a byte. */
  maxIdleMs: number;
}

export const UNREAD_BODY_BOUNDS: UnreadBodyBounds = { maxBytes: 16 * 1024 * 1024, maxMs: 10_000, maxIdleMs: 1_000 };

interface StallWatch {
  /** Resolves once no byte arrived for `maxIdleMs`, or `maxMs` passed. */
  stalled: Promise<'stalled'>;
  progress(): void;
  stop(): void;
}

function watchForStall(bounds: UnreadBodyBounds): StallWatch {
  const started = performance.now();
  let lastProgress = started;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let markStalled = () => {};
  const stalled = new Promise<'stalled'>((resolve) => {
    markStalled = () => resolve('stalled');
  });
  const left = () => {
    const now = performance.now();
    return Math.min(bounds.maxIdleMs - (now - lastProgress), bounds.maxMs - (now - started));
  };
  const arm = () => {
    timer = setTimeout(
      () => {
        // Bytes that arrived while the loop was busy are read in its poll phase, after the timers: look after it.
        void yieldToIo().then(() => {
          if (stopped) return;
          if (left() <= 0) markStalled();
          else arm();
        });
      },
      Math.max(left(), 0),
    );
  };
  arm();
  return {
    stalled,
    progress: () => {
      lastProgress = performance.now();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Reads and drops what is left of `req`'s body. True once the whole body arrived (the connection can be kept), false
 * when it announced or sent more than `maxBytes`, did not arrive within `maxMs`, stopped arriving for `maxIdleMs`,
 * failed, or is being read by someone else (the caller then answers with `connection: close`).
 */
export function dropUnreadBody(req: IncomingMessage, bounds: UnreadBodyBounds = UNREAD_BODY_BOUNDS): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  if (announcedPastBounds(req, bounds)) return Promise.resolve(false);
  // A reader already attached (a body stream half read when a limit refused it) would race this one for the bytes.
  if (req.listenerCount('data') > 0 || req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let received = 0;
    const watch = watchForStall(bounds);
    const finish = (kept: boolean) => {
      watch.stop();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (!kept) req.pause();
      resolve(kept);
    };
    const onData = (chunk: Buffer) => {
      watch.progress();
      received += chunk.length;
      if (received > bounds.maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    void watch.stalled.then(() => finish(false));
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
  const watch = watchForStall(bounds);
  try {
    let received = 0;
    for (;;) {
      const next = await Promise.race([reader.read(), watch.stalled]);
      if (next === 'stalled') return false;
      if (next.done) return true;
      watch.progress();
      received += next.value.byteLength;
      if (received > bounds.maxBytes) return false;
    }
  } catch {
    return false;
  } finally {
    watch.stop();
    // Not cancelled: cancelling would destroy the request's socket before its answer is written.
    reader.releaseLock();
  }
}
