import type { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import {
  CanvasId,
  CommentCreateBody,
  GUEST_TOKEN_HEADER,
  GuestJoinBody,
  InboxReadBody,
  ProjectId,
  ResourceId,
  ReviewRequestBody,
  ReviewSettingsBody,
  ReviewStateBody,
  ThreadCreateBody,
  ThreadQuery,
  ThreadStatusBody,
} from '../../contract/index.js';
import type { ReviewOperations } from '../../backend/review/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/ids.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/**
 * Review (issue 33; docs/review.md): comment threads and review states under the canvas, the reviewer's settings under
 * the project, each person's inbox, and a review link's guests under /api/v1/shared/{secret}.
 */

const CANVAS = '/api/v2/projects/:project_id/canvases/:canvas_id';
export const THREADS_PATH = `${CANVAS}/threads`;
export const THREAD_PATH = `${THREADS_PATH}/:thread_id`;
export const COMMENT_PATH = `${THREAD_PATH}/comments/:comment_id`;
export const REVIEW_STATES_PATH = `${CANVAS}/review-states`;
export const REVIEW_REQUESTS_PATH = `${CANVAS}/review-requests`;
export const REVIEW_SETTINGS_PATH = '/api/v2/projects/:project_id/review-settings';
export const INBOX_PATH = '/api/v1/inbox';
export const GUESTS_PATH = '/api/v1/shared/:secret/guests';
export const GUEST_THREADS_PATH = '/api/v1/shared/:secret/threads';

const canvas = { project_id: ProjectId, canvas_id: CanvasId };
const thread = { ...canvas, thread_id: ResourceId };
const refOf = (params: { project_id: string; canvas_id: string }) => ({
  projectId: params.project_id,
  canvasId: params.canvas_id,
});

export function registerReviewRoutes(app: Hono<BackendHttpEnv>, review: ReviewOperations): void {
  app.get(THREADS_PATH, async (c) => {
    const params = pathParams(c, canvas);
    const query = parseOrThrow(ThreadQuery, { filter: c.req.query('filter'), node_id: c.req.query('node_id') }, [
      'query',
    ]);
    return c.json(await review.threads.list(c.get('caller'), refOf(params), query));
  });
  app.post(THREADS_PATH, async (c) => {
    const params = pathParams(c, canvas);
    return c.json(
      await review.threads.create(c.get('caller'), refOf(params), await jsonBody(c, ThreadCreateBody)),
      201,
    );
  });
  app.get(THREAD_PATH, async (c) => {
    const params = pathParams(c, thread);
    return c.json(await review.threads.get(c.get('caller'), refOf(params), params.thread_id));
  });
  app.patch(THREAD_PATH, async (c) => {
    const params = pathParams(c, thread);
    const body = await jsonBody(c, ThreadStatusBody);
    return c.json(await review.threads.setStatus(c.get('caller'), refOf(params), params.thread_id, body.status));
  });
  app.post(`${THREAD_PATH}/comments`, async (c) => {
    const params = pathParams(c, thread);
    const body = await jsonBody(c, CommentCreateBody);
    return c.json(await review.threads.reply(c.get('caller'), refOf(params), params.thread_id, body), 201);
  });
  app.patch(COMMENT_PATH, async (c) => {
    const params = pathParams(c, { ...thread, comment_id: ResourceId });
    const body = await jsonBody(c, CommentCreateBody);
    return c.json(
      await review.threads.change(c.get('caller'), refOf(params), params.thread_id, params.comment_id, body.body),
    );
  });
  app.delete(COMMENT_PATH, async (c) => {
    const params = pathParams(c, { ...thread, comment_id: ResourceId });
    return c.json(
      await review.threads.change(c.get('caller'), refOf(params), params.thread_id, params.comment_id, null),
    );
  });

  app.get(REVIEW_STATES_PATH, async (c) =>
    c.json(await review.states.list(c.get('caller'), refOf(pathParams(c, canvas)))),
  );
  app.put(REVIEW_STATES_PATH, async (c) => {
    const params = pathParams(c, canvas);
    return c.json(await review.states.set(c.get('caller'), refOf(params), await jsonBody(c, ReviewStateBody)));
  });
  app.post(REVIEW_REQUESTS_PATH, async (c) => {
    const params = pathParams(c, canvas);
    return c.json(
      await review.states.request(c.get('caller'), refOf(params), await jsonBody(c, ReviewRequestBody)),
      201,
    );
  });
  app.put(REVIEW_SETTINGS_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId });
    const body = await jsonBody(c, ReviewSettingsBody);
    return c.json(await review.states.setEditorsApprove(c.get('caller'), params.project_id, body.editors_approve));
  });

  app.get(INBOX_PATH, async (c) => c.json(await review.inbox.read(c.get('caller'))));
  app.post(`${INBOX_PATH}/read`, async (c) => {
    const body = await jsonBody(c, InboxReadBody);
    return c.json(await review.inbox.markRead(c.get('caller'), body.all ? 'all' : body.notification_ids!));
  });
}

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

  app.post(GUESTS_PATH, async (c) => {
    await take(joins, sha256Hex(secretOf(c)), 'guests joining');
    const body = await jsonBody(c, GuestJoinBody);
    c.header('cache-control', 'no-store');
    return c.json(await review.guests.join(secretOf(c), body.name), 201);
  });
  app.post(GUEST_THREADS_PATH, async (c) => {
    const { secret, token } = await guestWrite(c);
    return c.json(await review.guests.startThread(secret, token, await jsonBody(c, ThreadCreateBody)), 201);
  });
  app.post(`${GUEST_THREADS_PATH}/:thread_id/comments`, async (c) => {
    const { secret, token } = await guestWrite(c);
    const params = pathParams(c, { thread_id: ResourceId });
    return c.json(
      await review.guests.reply(secret, token, params.thread_id, await jsonBody(c, CommentCreateBody)),
      201,
    );
  });
  app.patch(`${GUEST_THREADS_PATH}/:thread_id/comments/:comment_id`, async (c) => {
    const { secret, token } = await guestWrite(c);
    const params = pathParams(c, { thread_id: ResourceId, comment_id: ResourceId });
    const body = await jsonBody(c, CommentCreateBody);
    return c.json(await review.guests.change(secret, token, params.thread_id, params.comment_id, body.body));
  });
  app.delete(`${GUEST_THREADS_PATH}/:thread_id/comments/:comment_id`, async (c) => {
    const { secret, token } = await guestWrite(c);
    const params = pathParams(c, { thread_id: ResourceId, comment_id: ResourceId });
    return c.json(await review.guests.change(secret, token, params.thread_id, params.comment_id, null));
  });
}
