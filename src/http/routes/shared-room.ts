import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { REQUEST_ID_HEADER } from '../../contract/index.js';
import type { ShareLinkOperations } from '../../backend/deliverables/share-links.js';
import { sseSubscriber } from '../../backend/feed/sse-subscriber.js';
import type { ReviewRooms } from '../../backend/review/review-rooms.js';
import { CanvasError } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/ids.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { createFeedRechecks } from './feed-rechecks.js';

/**
 * A share link's room stream (docs/review.md, "The review room"): whoever holds a link hears, as Server-Sent Events,
 * the review rooms of the boards the link shows and nothing else: no layout, no states, no threads, no people but
 * "Team member" presenting. It is not the change feed: a guest has no account, and the feed carries the canvas. Ends
 * when the link is revoked or expires (checked every 5 s); the boards a link to the whole canvas shows are read again
 * then too.
 */

const ROOM_STREAM = apiRoute({
  method: 'get',
  path: '/api/v1/shared/:secret/room',
  operationId: 'followSharedRoom',
  summary:
    'The review rooms of the boards a share link shows, as Server-Sent Events (`room` events alone), for anyone holding the link: who presents which shot, playing or not.',
  tag: 'canvas',
  auth: 'none',
  params: z.object({ secret: z.string() }),
  responses: {
    200: {
      description: 'The event stream.',
      content: {
        'text/event-stream': z.string().meta({
          description:
            'Server-Sent Events: `room` ({board_node_id, room, ended?}), one per room at once and on every change; presenters are named "Team member".',
        }),
      },
    },
    404: { description: 'No such link, or revoked, expired or its canvas gone (details.reason says which).' },
    429: { description: 'Too many room streams open on this link or from this address.' },
  },
});

export const SHARED_ROOM_ROUTES = [ROOM_STREAM];

/** Streams open at once per link and per address; openings a minute per address (as reads of a link). */
const STREAMS_PER_LINK = 100;
const STREAMS_PER_ADDRESS = 50;
const OPENS_PER_ADDRESS = 120;
const KEEP_ALIVE = Buffer.from(': keep-alive\n\n');
const RETRY_AFTER_DROP = Buffer.from('retry: 1000\n\n');
/** A room event is small: a guest that cannot take these few is cut off, and its page comes back for the state. */
const QUEUE_LIMITS = { maxQueuedEvents: 64, maxQueuedBytes: 256 * 1024 };

export interface SharedRoomOptions {
  links: ShareLinkOperations;
  rooms: ReviewRooms;
  heartbeatMs?: number;
  recheckMs?: number;
}

export function registerSharedRoomRoute(app: Hono<BackendHttpEnv>, options: SharedRoomOptions): void {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const rechecks = createFeedRechecks(options.recheckMs ?? 5_000);
  const opens = new RateLimiterMemory({ points: OPENS_PER_ADDRESS, duration: 60 });
  /** Per link: the boards it shows now (read again with each recheck) and its open streams. */
  const links = new Map<string, { boards: Set<string>; streams: number }>();
  const perAddress = new Map<string, number>();

  handle(app, ROOM_STREAM, async (c, input) => {
    const { secret } = input.params();
    const address = c.env.incoming?.socket.remoteAddress ?? 'unknown';
    try {
      await opens.consume(address);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new CanvasError('rate_limited', 'Room streams are opened too often from here: try again in a moment.', {
        retry_after_ms: refusal.msBeforeNext,
      });
    }
    const link = await options.links.live(secret);
    const key = sha256Hex(secret);
    let shared = links.get(key);
    if (!shared) {
      const boards = new Set(await options.links.shownBoards(link));
      // Another stream of the link may have come while the boards were read: share its entry.
      shared = links.get(key) ?? { boards, streams: 0 };
    }
    if (shared.streams >= STREAMS_PER_LINK || (perAddress.get(address) ?? 0) >= STREAMS_PER_ADDRESS)
      throw new CanvasError('rate_limited', 'Too many room streams are open on this link: close another page first.', {
        max_streams_per_link: STREAMS_PER_LINK,
        max_streams_per_address: STREAMS_PER_ADDRESS,
      });
    shared.streams += 1;
    links.set(key, shared);
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);

    const res = (c.env as { outgoing: ServerResponse }).outgoing;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      [REQUEST_ID_HEADER]: c.get('requestId'),
    });
    res.write(RETRY_AFTER_DROP);
    const subscriber = sseSubscriber(res, QUEUE_LIMITS);
    const heartbeat = setInterval(() => subscriber.idle(KEEP_ALIVE), heartbeatMs);
    const stopRecheck = rechecks.add(
      key,
      async () => {
        try {
          shared!.boards = new Set(await options.links.shownBoards(await options.links.live(secret)));
          return true;
        } catch (error) {
          if (error instanceof CanvasError && error.code === 'not_found') return false;
          throw error;
        }
      },
      () => subscriber.close('link_ended'),
    );
    const unwatch = options.rooms.watch(link.projectId, link.canvasId, subscriber, {
      guest: true,
      shows: (board) => shared.boards.has(board),
      onFull: () => subscriber.close('slow_reader'),
    });
    res.on('close', () => {
      clearInterval(heartbeat);
      stopRecheck();
      unwatch();
      shared.streams -= 1;
      if (shared.streams === 0 && links.get(key) === shared) links.delete(key);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    return RESPONSE_ALREADY_SENT;
  });
}
