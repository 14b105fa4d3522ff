import type { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import {
  CommentCreateBody,
  CommentEditBody,
  GUEST_TOKEN_HEADER,
  GuestJoinBody,
  GuestView,
  ResourceId,
  ThreadCreateBody,
  ThreadView,
} from '../../contract/index.js';
import type { ReviewOperations } from '../../backend/review/index.js';
import { CanvasError } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/ids.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { GuestHeader, ok } from '../route-parameters.js';

/** A review link's guests (docs/review.md), under /api/v1/shared/{secret}: a name, then their comments. */

const THREADS = '/api/v1/shared/:secret/threads';
const linkParams = z.object({ secret: z.string() });
const commentParams = linkParams.extend({ thread_id: ResourceId, comment_id: ResourceId });

const JOIN = apiRoute({
  method: 'post',
  path: '/api/v1/shared/:secret/guests',
  operationId: 'joinAsGuest',
  summary: "A guest of a review link gives a name; the answer's token (X-Guest-Token) names them on their comments.",
  tag: 'canvas',
  auth: 'none',
  params: linkParams,
  body: GuestJoinBody,
  responses: { 201: ok('The guest, with their token (once).', GuestView) },
});

const START_THREAD = apiRoute({
  method: 'post',
  path: THREADS,
  operationId: 'guestStartThread',
  summary: 'A guest starts a thread on a board (or shot) the link shows.',
  tag: 'canvas',
  auth: 'none',
  params: linkParams,
  headers: GuestHeader,
  body: ThreadCreateBody,
  responses: { 201: ok('The thread, as guests see it.', ThreadView) },
});

const REPLY = apiRoute({
  method: 'post',
  path: `${THREADS}/:thread_id/comments`,
  operationId: 'guestReply',
  summary: 'A guest replies in a thread on a board the link shows.',
  tag: 'canvas',
  auth: 'none',
  params: linkParams.extend({ thread_id: ResourceId }),
  headers: GuestHeader,
  body: CommentCreateBody,
  responses: { 201: ok('The thread, as guests see it.', ThreadView) },
});

const EDIT_COMMENT = apiRoute({
  method: 'patch',
  path: `${THREADS}/:thread_id/comments/:comment_id`,
  operationId: 'guestEditComment',
  summary: 'A guest edits their own comment.',
  tag: 'canvas',
  auth: 'none',
  params: commentParams,
  headers: GuestHeader,
  body: CommentEditBody,
  responses: { 200: ok('The thread, as guests see it.', ThreadView) },
});

const DELETE_COMMENT = apiRoute({
  method: 'delete',
  path: `${THREADS}/:thread_id/comments/:comment_id`,
  operationId: 'guestDeleteComment',
  summary: 'A guest deletes their own comment.',
  tag: 'canvas',
  auth: 'none',
  params: commentParams,
  headers: GuestHeader,
  responses: { 200: ok('The thread, as guests see it.', ThreadView) },
});

export const GUEST_REVIEW_ROUTES = [JOIN, START_THREAD, REPLY, EDIT_COMMENT, DELETE_COMMENT];

/** Comments a minute from one review link, and from one guest (a link is shared with a handful of people). */
const GUEST_WRITES_PER_LINK = 120;
const GUEST_WRITES_PER_GUEST = 20;
const GUEST_JOINS_PER_LINK = 30;

/** The public routes of a review link's guests: no session, no cookie; the guest token names the guest. */
export function registerGuestReviewRoutes(app: Hono<BackendHttpEnv>, review: ReviewOperations): void {
  const perLink = new RateLimiterMemory({ points: GUEST_WRITES_PER_LINK, duration: 60 });
  const perGuest = new RateLimiterMemory({ points: GUEST_WRITES_PER_GUEST, duration: 60 });
  const joins = new RateLimiterMemory({ points: GUEST_JOINS_PER_LINK, duration: 60 });
  const take = async (limiter: RateLimiterMemory, key: string, what: string) => {
    try {
      await limiter.consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new CanvasError('rate_limited', `Too many ${what} on this link: try again in a moment.`, {
        retry_after_ms: refusal.msBeforeNext,
      });
    }
  };
  const secretOf = (c: { req: { param(name: string): string } }) => c.req.param('secret');
  /** Counts a guest's write against the link's and the guest's own limits. */
  const guestWrite = async (c: BackendContext) => {
    const secret = secretOf(c);
    const token = c.req.header(GUEST_TOKEN_HEADER);
    await take(perLink, sha256Hex(secret), 'comments');
    await take(perGuest, await review.guests.guestId(secret, token), 'comments from you');
    c.header('cache-control', 'no-store');
    return { secret, token };
  };

  handle(app, JOIN, async (c, input) => {
    await take(joins, sha256Hex(secretOf(c)), 'guests joining');
    const body = await input.body();
    c.header('cache-control', 'no-store');
    return c.json(await review.guests.join(secretOf(c), body.name), 201);
  });
  handle(app, START_THREAD, async (c, input) => {
    const { secret, token } = await guestWrite(c);
    return c.json(await review.guests.startThread(secret, token, await input.body()), 201);
  });
  handle(app, REPLY, async (c, input) => {
    const { secret, token } = await guestWrite(c);
    const params = input.params('thread_id');
    return c.json(await review.guests.reply(secret, token, params.thread_id, await input.body()), 201);
  });
  handle(app, EDIT_COMMENT, async (c, input) => {
    const { secret, token } = await guestWrite(c);
    const params = input.params('thread_id', 'comment_id');
    const body = await input.body();
    return c.json(await review.guests.change(secret, token, params.thread_id, params.comment_id, body.body));
  });
  handle(app, DELETE_COMMENT, async (c, input) => {
    const { secret, token } = await guestWrite(c);
    const params = input.params('thread_id', 'comment_id');
    return c.json(await review.guests.change(secret, token, params.thread_id, params.comment_id, null));
  });
}
