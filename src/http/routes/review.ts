import type { Hono } from 'hono';
import { z } from 'zod';
import {
  CommentCreateBody,
  CommentEditBody,
  Inbox,
  InboxReadBody,
  ResourceId,
  ReviewRequestBody,
  ReviewSettingsBody,
  ReviewStateBody,
  ReviewStateList,
  ReviewStateView,
  ThreadCreateBody,
  ThreadList,
  ThreadQuery,
  ThreadStatusBody,
  ThreadView,
} from '../../contract/index.js';
import type { ReviewOperations } from '../../backend/review/index.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok, projectParams } from '../route-parameters.js';

/**
 * Review (docs/review.md): comment threads and review states under the canvas, the reviewer's settings under
 * the project, and each person's inbox. A review link's guests are in review-guests.ts.
 */

const THREADS = `${CANVAS}/threads`;
const THREAD = `${THREADS}/:thread_id`;
const COMMENT = `${THREAD}/comments/:comment_id`;
const threadParams = canvasParams.extend({ thread_id: ResourceId });
const commentParams = threadParams.extend({ comment_id: ResourceId });

const LIST_THREADS = apiRoute({
  method: 'get',
  path: THREADS,
  operationId: 'listThreads',
  summary:
    "The canvas's comment threads (viewers), latest activity first: filter open, resolved, mine or mentions_me; node_id for one node's.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  query: ThreadQuery,
  responses: { 200: ok('The threads with their comments.', ThreadList) },
});

const CREATE_THREAD = apiRoute({
  method: 'post',
  path: THREADS,
  operationId: 'createThread',
  summary:
    'Start a comment thread (people who may read the canvas): on a node, a shot, a point of its picture or a timecode, or on the canvas. Never moves the revision.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: ThreadCreateBody,
  responses: { 201: ok('The new thread.', ThreadView) },
});

const GET_THREAD = apiRoute({
  method: 'get',
  path: THREAD,
  operationId: 'getThread',
  summary: 'One comment thread.',
  tag: 'canvas',
  auth: 'caller',
  params: threadParams,
  responses: { 200: ok('The thread.', ThreadView) },
});

const SET_THREAD_STATUS = apiRoute({
  method: 'patch',
  path: THREAD,
  operationId: 'setThreadStatus',
  summary: 'Resolve or reopen a thread (people; agents with the review tool set).',
  tag: 'canvas',
  auth: 'caller',
  params: threadParams,
  body: ThreadStatusBody,
  responses: { 200: ok('The thread.', ThreadView) },
});

const REPLY = apiRoute({
  method: 'post',
  path: `${THREAD}/comments`,
  operationId: 'replyInThread',
  summary:
    'Reply in a thread (people; agents with the review tool set). @name mentions a member, @assistant asks the assistant.',
  tag: 'canvas',
  auth: 'caller',
  params: threadParams,
  body: CommentCreateBody,
  responses: { 201: ok('The thread with the reply.', ThreadView) },
});

const EDIT_COMMENT = apiRoute({
  method: 'patch',
  path: COMMENT,
  operationId: 'editComment',
  summary: "Edit one's own comment.",
  tag: 'canvas',
  auth: 'caller',
  params: commentParams,
  body: CommentEditBody,
  responses: { 200: ok('The thread.', ThreadView) },
});

const DELETE_COMMENT = apiRoute({
  method: 'delete',
  path: COMMENT,
  operationId: 'deleteComment',
  summary: "Delete one's own comment (it shows as deleted in its thread).",
  tag: 'canvas',
  auth: 'caller',
  params: commentParams,
  responses: { 200: ok('The thread.', ThreadView) },
});

const REVIEW_STATES = apiRoute({
  method: 'get',
  path: `${CANVAS}/review-states`,
  operationId: 'listReviewStates',
  summary: "Review states of the canvas's boards and shots, each with changed_since_approval.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The states.', ReviewStateList) },
});

const SET_REVIEW_STATE = apiRoute({
  method: 'put',
  path: `${CANVAS}/review-states`,
  operationId: 'setReviewState',
  summary:
    "Set a board's or shot's review state: signed-in people only (owners; editors when allowed). Every token, agent and assistant is refused.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: ReviewStateBody,
  responses: { 200: ok('The state.', ReviewStateView) },
});

const REQUEST_APPROVAL = apiRoute({
  method: 'post',
  path: `${CANVAS}/review-requests`,
  operationId: 'requestApproval',
  summary:
    'Ask chosen approvers to approve a board or shot (signed-in editors): it goes in review and they are notified.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: ReviewRequestBody,
  responses: { 201: ok('The state, in review.', ReviewStateView) },
});

const REVIEW_SETTINGS = apiRoute({
  method: 'put',
  path: '/api/v2/projects/:project_id/review-settings',
  operationId: 'setReviewSettings',
  summary: 'Whether editors may set review states too (owners, signed in).',
  tag: 'canvas',
  auth: 'caller',
  params: projectParams,
  body: ReviewSettingsBody,
  responses: { 200: ok('The settings.', z.object({ editors_approve: z.boolean() })) },
});

const INBOX = apiRoute({
  method: 'get',
  path: '/api/v1/inbox',
  operationId: 'readInbox',
  summary:
    "The signed-in person's inbox: mentions, replies, approval requests and decisions, newest first, with the unread count.",
  tag: 'people',
  auth: 'caller',
  responses: { 200: ok('The inbox.', Inbox) },
});

const MARK_READ = apiRoute({
  method: 'post',
  path: '/api/v1/inbox/read',
  operationId: 'markInboxRead',
  summary: 'Mark notifications read (some, or all).',
  tag: 'people',
  auth: 'caller',
  body: InboxReadBody,
  responses: { 200: ok('The inbox.', Inbox) },
});

export const REVIEW_ROUTES = [
  LIST_THREADS,
  CREATE_THREAD,
  GET_THREAD,
  SET_THREAD_STATUS,
  REPLY,
  EDIT_COMMENT,
  DELETE_COMMENT,
  REVIEW_STATES,
  SET_REVIEW_STATE,
  REQUEST_APPROVAL,
  REVIEW_SETTINGS,
  INBOX,
  MARK_READ,
];

export function registerReviewRoutes(app: Hono<BackendHttpEnv>, review: ReviewOperations): void {
  handle(app, LIST_THREADS, async (c, input) => {
    const params = input.params();
    const query = input.namedQuery();
    return c.json(await review.threads.list(c.get('caller'), canvasRef(params), query));
  });
  handle(app, CREATE_THREAD, async (c, input) => {
    const params = input.params();
    return c.json(await review.threads.create(c.get('caller'), canvasRef(params), await input.body()), 201);
  });
  handle(app, GET_THREAD, async (c, input) => {
    const params = input.params();
    return c.json(await review.threads.get(c.get('caller'), canvasRef(params), params.thread_id));
  });
  handle(app, SET_THREAD_STATUS, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(await review.threads.setStatus(c.get('caller'), canvasRef(params), params.thread_id, body.status));
  });
  handle(app, REPLY, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(await review.threads.reply(c.get('caller'), canvasRef(params), params.thread_id, body), 201);
  });
  handle(app, EDIT_COMMENT, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(
      await review.threads.change(c.get('caller'), canvasRef(params), params.thread_id, params.comment_id, body.body),
    );
  });
  handle(app, DELETE_COMMENT, async (c, input) => {
    const params = input.params();
    return c.json(
      await review.threads.change(c.get('caller'), canvasRef(params), params.thread_id, params.comment_id, null),
    );
  });

  handle(app, REVIEW_STATES, async (c, input) =>
    c.json(await review.states.list(c.get('caller'), canvasRef(input.params()))),
  );
  handle(app, SET_REVIEW_STATE, async (c, input) => {
    const params = input.params();
    return c.json(await review.states.set(c.get('caller'), canvasRef(params), await input.body()));
  });
  handle(app, REQUEST_APPROVAL, async (c, input) => {
    const params = input.params();
    return c.json(await review.states.request(c.get('caller'), canvasRef(params), await input.body()), 201);
  });
  handle(app, REVIEW_SETTINGS, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(await review.states.setEditorsApprove(c.get('caller'), params.project_id, body.editors_approve));
  });

  handle(app, INBOX, async (c) => c.json(await review.inbox.read(c.get('caller'))));
  handle(app, MARK_READ, async (c, input) => {
    const body = await input.body();
    return c.json(await review.inbox.markRead(c.get('caller'), body.all ? 'all' : body.notification_ids!));
  });
}
