import type { ServerResponse } from 'node:http';
import type { FeedEvent, FeedSubscriber } from './feed-hub.js';

/**
 * A change-feed subscriber writing SSE frames straight to a Node response: an event reaches 200 subscribers as 200
 * writes of one shared buffer, and the socket's own backpressure tells a slow reader apart. A reader whose socket is
 * full gets its events queued, up to a number of events and of bytes; past either, `send` answers false and the hub
 * cuts it off with `reset` (it re-reads when it comes back), so memory never grows with a reader that does not read.
 */

export interface SseSubscriber extends FeedSubscriber {
  /** Writes a frame outside the feed (a keep-alive comment) when nothing is waiting. */
  idle(frame: Buffer): void;
}

export function sseSubscriber(
  res: ServerResponse,
  limits: { maxQueuedEvents: number; maxQueuedBytes: number },
): SseSubscriber {
  const queue: FeedEvent[] = [];
  let queuedBytes = 0;
  let draining = false;
  let closed = false;
  let waiters: Array<() => void> = [];

  const settle = () => {
    if (closed || (!draining && queue.length === 0)) {
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    }
  };
  const flush = () => {
    draining = false;
    while (queue.length > 0 && !draining) {
      const event = queue.shift()!;
      queuedBytes -= event.frame.length;
      draining = !res.write(event.frame);
    }
    if (closed && queue.length === 0) res.end();
    settle();
  };
  res.on('drain', flush);
  res.on('close', () => {
    closed = true;
    queue.length = 0;
    queuedBytes = 0;
    settle();
  });

  return {
    get closed() {
      return closed;
    },
    send(event) {
      if (closed) return true;
      if (!draining && queue.length === 0) {
        draining = !res.write(event.frame);
        return true;
      }
      // A reset always gets through: it is what tells a reader cut off for being slow to re-read.
      const full = queue.length >= limits.maxQueuedEvents || queuedBytes + event.frame.length > limits.maxQueuedBytes;
      if (full && event.event !== 'reset') return false;
      queue.push(event);
      queuedBytes += event.frame.length;
      return true;
    },
    close() {
      if (closed) return;
      closed = true;
      if (queue.length === 0) res.end();
      settle();
    },
    drained() {
      if (closed || (!draining && queue.length === 0)) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    idle(frame) {
      if (!draining && queue.length === 0 && !closed) draining = !res.write(frame);
    },
  };
}
