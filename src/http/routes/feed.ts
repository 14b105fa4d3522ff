import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono } from 'hono';
import { z } from 'zod';
import { REQUEST_ID_HEADER } from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../../backend/auth/access.js';
import { credentialStillValid } from '../../backend/auth/recheck.js';
import { reset, type FeedHub } from '../../backend/feed/feed-hub.js';
import type { Presence } from '../../backend/presence/presence.js';
import type { ReviewRooms } from '../../backend/review/review-rooms.js';
import { createFeedQuota } from '../../backend/feed/feed-quota.js';
import { sseSubscriber } from '../../backend/feed/sse-subscriber.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams } from '../route-parameters.js';
import type { CallerContext } from '../../backend/auth/caller.js';
import { createFeedRechecks } from './feed-rechecks.js';

/**
 * GET …/canvases/{canvas_id}/events: the change feed as Server-Sent Events (docs/api.md, "Change feed"). Resume with
 * Last-Event-ID (what EventSource sends on its own) or ?after=REVISION.
 *
 * Frames go straight to the Node response: an event reaches 200 subscribers as 200 writes of one shared buffer, and
 * the socket's own backpressure tells a slow reader apart. A reader whose socket is full gets its events queued, up
 * to a bound; past it, it is cut off with `reset` (it re-reads when it comes back) and memory never grows.
 */

export interface FeedRouteOptions {
  store: Store;
  hub: FeedHub;
  clock: () => number;
  /** Events a subscriber may have waiting behind a full socket; beyond it the subscriber is cut with `reset`. */
  maxQueuedEvents?: number;
  /** Bytes of events a subscriber may have waiting behind a full socket; beyond it, the same. */
  maxQueuedBytes?: number;
  /** Feeds one session may hold open at once (docs/security.md, "Budgets of the people's side"). */
  maxFeedsPerSession?: number;
  /** Feeds one person (all their sessions, and backend tokens acting for them) or one token may hold open at once. */
  maxFeedsPerCaller?: number;
  heartbeatMs?: number;
  /** How often the subscriber's credential and rights are checked again. */
  recheckMs?: number;
  /** A session unused this long ends, and with it its open feeds. */
  sessionIdleMs: number;
  /** Who is on the canvas, sent as `presence` events; null: none. */
  presence?: Presence | null;
  /** The canvas's review rooms, sent as `room` events; null: none. */
  rooms?: ReviewRooms | null;
}

const Revision = z.coerce.number().int().min(0, { error: 'must be a revision (an integer >= 0)' });

const FEED = apiRoute({
  method: 'get',
  path: `${CANVAS}/events`,
  operationId: 'changeFeed',
  summary: 'The change feed (Server-Sent Events).',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  query: z.object({
    after: Revision.optional().meta({ description: 'Resume after this revision (or send Last-Event-ID).' }),
  }),
  responses: {
    200: {
      description: 'The event stream.',
      content: {
        'text/event-stream': z.string().meta({
          description:
            'Server-Sent Events: `layout` (a revision, id = revision), `node_state`, `reset` (re-read the snapshot), `presence` (who is on the canvas), `export` (the progress of an export), `comment` (a comment thread as it now is), `review` (the review states), `room` (a review room: who presents which shot of a board); docs/api.md.',
        }),
      },
    },
  },
});

export const FEED_ROUTES = [FEED];
const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');
const RETRY_AFTER_DROP = Buffer.from('retry: 1000\n\n');

/** Feeds that share this key share their rights check: the same credential (and gateway, actor) on one canvas. */
function recheckKey(caller: CallerContext, projectId: string, canvasId: string): string {
  const { principal } = caller;
  const credential = principal.kind === 'session' ? `session:${principal.sessionId}` : `token:${principal.tokenId}`;
  const actor = caller.actor ? `${caller.actor.issuer}|${caller.actor.subject}` : '';
  return [credential, caller.gateway?.tokenId ?? '', actor, caller.agentRunId ?? '', projectId, canvasId].join(
    '\u0000',
  );
}

export function registerFeedRoutes(app: Hono<BackendHttpEnv>, options: FeedRouteOptions): void {
  const queueLimits = {
    maxQueuedEvents: options.maxQueuedEvents ?? 2000,
    maxQueuedBytes: options.maxQueuedBytes ?? 8 * 1024 * 1024,
  };
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const rechecks = createFeedRechecks(options.recheckMs ?? 5_000);
  const quota = createFeedQuota({
    perSession: options.maxFeedsPerSession ?? 8,
    perCaller: options.maxFeedsPerCaller ?? 16,
  });

  handle(app, FEED, async (c, input) => {
    const params = input.params();
    const caller = c.get('caller');
    await authorizeProject(options.store, caller, params.project_id, 'viewer');
    await requireCanvas(options.store, params.project_id, params.canvas_id);
    // ?after, or the Last-Event-ID EventSource sends by itself: the declaration's Revision reads either.
    const resume = c.req.header('last-event-id') ?? c.req.query('after');
    const after = resume === undefined || resume === '' ? null : parseOrThrow(Revision, resume, ['after']);
    const release = quota.open(caller);

    const res = (c.env as { outgoing: ServerResponse }).outgoing;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      [REQUEST_ID_HEADER]: c.get('requestId'),
    });
    // A browser whose stream drops comes back after a second (EventSource's own default is several), resuming
    // from the Last-Event-ID it sends by itself.
    res.write(RETRY_AFTER_DROP);

    const subscriber = sseSubscriber(res, queueLimits);
    let unsubscribe: (() => void) | null = null;
    let unwatch: (() => void) | null = null;
    let unwatchRooms: (() => void) | null = null;
    let gone = false;
    const heartbeat = setInterval(() => subscriber.idle(KEEP_ALIVE), heartbeatMs);
    // A revoked token, an ended or idle session or a lost membership ends the feed within recheckMs; feeds of the same
    // credential on the same canvas are checked once for all (src/http/routes/feed-rechecks.ts).
    const stopRecheck = rechecks.add(
      recheckKey(caller, params.project_id, params.canvas_id),
      async () => {
        try {
          const valid = await credentialStillValid(options.store, caller, options.clock(), options.sessionIdleMs);
          if (!valid) return false;
          await authorizeProject(options.store, caller, params.project_id, 'viewer');
          // A canvas deleted while it was watched ends its feeds too.
          await requireCanvas(options.store, params.project_id, params.canvas_id);
          return true;
        } catch (error) {
          if (error instanceof CanvasError && error.code !== 'unavailable') return false;
          throw error;
        }
      },
      () => {
        subscriber.send(reset('access_revoked', 0));
        subscriber.close('access_revoked');
      },
    );
    // Registered before the replay: a client that leaves during it is let go too.
    res.on('close', () => {
      gone = true;
      clearInterval(heartbeat);
      stopRecheck();
      release();
      unsubscribe?.();
      unwatch?.();
      unwatchRooms?.();
    });
    unsubscribe = await options.hub.subscribe(params.project_id, params.canvas_id, after, subscriber);
    if (!gone) unwatch = options.presence?.watch(params.project_id, params.canvas_id, subscriber) ?? null;
    if (!gone) unwatchRooms = options.rooms?.watch(params.project_id, params.canvas_id, subscriber) ?? null;
    if (gone) unsubscribe();
    return RESPONSE_ALREADY_SENT;
  });
}
