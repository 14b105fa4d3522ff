import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { CanvasId, ProjectId } from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import { credentialStillValid } from '../auth/recheck.js';
import type { FeedEvent, FeedHub } from '../feed/feed-hub.js';
import type { BackendHttpEnv } from './http-env.js';
import { pathParams } from './request-parsing.js';

/**
 * GET …/canvases/{canvas_id}/events: the change feed as Server-Sent Events (docs/api.md, "Change feed"). Resume with
 * Last-Event-ID (what EventSource sends on its own) or ?after=REVISION.
 */

export interface FeedRouteOptions {
  store: Store;
  hub: FeedHub;
  clock: () => number;
  /** Events a subscriber may have waiting; beyond it the subscriber is cut with `reset`. */
  maxQueuedEvents?: number;
  heartbeatMs?: number;
  /** How often the subscriber's credential and rights are checked again. */
  recheckMs?: number;
}

export const FEED_ROUTE_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/events';

const Revision = z.coerce.number().int().min(0, { error: 'must be a revision (an integer >= 0)' });

export function registerFeedRoutes(app: Hono<BackendHttpEnv>, options: FeedRouteOptions): void {
  const maxQueued = options.maxQueuedEvents ?? 2000;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const recheckMs = options.recheckMs ?? 5_000;

  app.get(FEED_ROUTE_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    const caller = c.get('caller');
    await authorizeProject(options.store, caller, params.project_id, 'viewer');
    await requireCanvas(options.store, params.project_id, params.canvas_id);
    const resume = c.req.header('last-event-id') ?? c.req.query('after');
    const after = resume === undefined || resume === '' ? null : parseOrThrow(Revision, resume, ['after']);
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');

    return streamSSE(c, async (stream) => {
      const queue: FeedEvent[] = [];
      let closed = false;
      let wake: (() => void) | null = null;
      const notify = () => {
        const waiting = wake;
        wake = null;
        waiting?.();
      };
      const subscriber = {
        send(event: FeedEvent) {
          if (closed) return true;
          // A reset always gets through: it is what tells a reader cut off for being slow to re-read.
          if (queue.length >= maxQueued && event.event !== 'reset') return false;
          queue.push(event);
          notify();
          return true;
        },
        close() {
          closed = true;
          notify();
        },
      };
      stream.onAbort(() => subscriber.close());
      const unsubscribe = await options.hub.subscribe(params.project_id, params.canvas_id, after, subscriber);
      let heartbeatDue = false;
      const heartbeat = setInterval(() => {
        heartbeatDue = true;
        notify();
      }, heartbeatMs);
      // A revoked token, an ended session or a lost membership ends the feed within recheckMs.
      const recheck = setInterval(() => {
        void (async () => {
          try {
            const valid = await credentialStillValid(options.store, caller, options.clock());
            if (!valid) throw new CanvasError('unauthenticated', 'The credential of this feed is no longer valid.');
            await authorizeProject(options.store, caller, params.project_id, 'viewer');
          } catch (error) {
            if (error instanceof CanvasError && error.code !== 'unavailable') {
              queue.push({ event: 'reset', data: { reason: 'access_revoked', revision: 0 } });
              subscriber.close();
            }
          }
        })();
      }, recheckMs);
      try {
        while (!closed || queue.length > 0) {
          if (queue.length === 0 && !heartbeatDue) await new Promise<void>((resolve) => (wake = resolve));
          if (heartbeatDue) {
            heartbeatDue = false;
            await stream.write(': keep-alive\n\n');
          }
          while (queue.length > 0) {
            const next = queue.shift()!;
            await stream.writeSSE({ event: next.event, data: JSON.stringify(next.data), ...('id' in next ? { id: String(next.id) } : {}) });
          }
          if (stream.aborted) break;
        }
      } finally {
        clearInterval(heartbeat);
        clearInterval(recheck);
        unsubscribe();
      }
    });
  });
}
