import type { Hono } from 'hono';
import { z } from 'zod';
import {
  ChatRunList,
  ChatRunOpenBody,
  ChatRunView,
  EmailBody,
  HistoryPage,
  HistoryQuery,
  IssuedToken,
  MeView,
  NameBody,
  ProjectId,
  ResourceId,
  TokenIssueBody,
  TokenList,
  TokenView,
} from '../../contract/index.js';
import type { PeopleOperations } from '../../backend/team/people-operations.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/** Routes of the people's side: who am I, chat runs, agent tokens, history (docs/api.md). */

const ME = apiRoute({
  method: 'get',
  path: '/api/v1/me',
  operationId: 'me',
  summary: 'Who the caller is and what it can open.',
  tag: 'people',
  auth: 'caller',
  responses: { 200: ok('The caller.', MeView) },
});

const SET_NAME = apiRoute({
  method: 'put',
  path: '/api/v1/me/name',
  operationId: 'setMyName',
  summary: 'The name the signed-in person is shown by on every screen (1 to 100 characters, no control characters).',
  tag: 'people',
  auth: 'caller',
  body: NameBody,
  responses: { 200: ok('The name as kept.', z.strictObject({ display_name: z.string() })) },
});

const SET_EMAIL = apiRoute({
  method: 'patch',
  path: '/api/v1/me/email',
  operationId: 'setMyEmail',
  summary: "The signed-in person's address for e-mailed sign-in links (null forgets it); one person per address.",
  tag: 'people',
  auth: 'caller',
  body: EmailBody,
  responses: { 200: ok('The address as kept.', z.strictObject({ email: z.string().nullable() })) },
});

const HISTORY = apiRoute({
  method: 'get',
  path: `${CANVAS}/history`,
  operationId: 'history',
  summary: 'Revisions, newest first.',
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  query: HistoryQuery,
  responses: { 200: ok('A page of revisions.', HistoryPage) },
});

const OPEN_CHAT_RUN = apiRoute({
  method: 'post',
  path: `${CANVAS}/chat-runs`,
  operationId: 'openChatRun',
  summary: "Open a chat run for the caller's agent.",
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  body: ChatRunOpenBody,
  responses: { 201: ok('Opened.', ChatRunView) },
});

const CHAT_RUNS = apiRoute({
  method: 'get',
  path: `${CANVAS}/chat-runs`,
  operationId: 'listChatRuns',
  summary: 'The active chat runs of a canvas.',
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The chat runs.', ChatRunList) },
});

const END_CHAT_RUN = apiRoute({
  method: 'delete',
  path: `${CANVAS}/chat-runs/:chat_run_id`,
  operationId: 'endChatRun',
  summary: 'End a chat run.',
  tag: 'people',
  auth: 'caller',
  params: canvasParams.extend({ chat_run_id: ResourceId }),
  responses: { 200: ok('Ended.', ChatRunView) },
});

const ISSUE_TOKEN = apiRoute({
  method: 'post',
  path: '/api/v1/tokens',
  operationId: 'issueToken',
  summary: 'Issue an agent token (owners).',
  tag: 'people',
  auth: 'caller',
  body: TokenIssueBody,
  responses: { 201: ok('Issued; the secret is shown once.', IssuedToken) },
});

const TOKENS = apiRoute({
  method: 'get',
  path: '/api/v1/tokens',
  operationId: 'listTokens',
  summary: 'The tokens of a project, without secrets (owners).',
  tag: 'people',
  auth: 'caller',
  query: z.object({ project_id: ProjectId }),
  responses: { 200: ok('The tokens.', TokenList) },
});

const REVOKE_TOKEN = apiRoute({
  method: 'delete',
  path: '/api/v1/tokens/:token_id',
  operationId: 'revokeToken',
  summary: 'Revoke a token.',
  tag: 'people',
  auth: 'caller',
  params: z.object({ token_id: ResourceId }),
  responses: { 200: ok('Revoked.', TokenView) },
});

export const PEOPLE_ROUTES = [
  ME,
  SET_EMAIL,
  SET_NAME,
  HISTORY,
  OPEN_CHAT_RUN,
  CHAT_RUNS,
  END_CHAT_RUN,
  ISSUE_TOKEN,
  TOKENS,
  REVOKE_TOKEN,
];

export function registerPeopleRoutes(app: Hono<BackendHttpEnv>, people: PeopleOperations): void {
  handle(app, ME, async (c) => c.json(await people.me(c.get('caller'))));
  handle(app, SET_NAME, async (c, input) =>
    c.json(await people.setName(c.get('caller'), (await input.body()).display_name)),
  );
  handle(app, SET_EMAIL, async (c, input) =>
    c.json(await people.setEmail(c.get('caller'), (await input.body()).email)),
  );

  handle(app, HISTORY, async (c, input) => {
    const params = input.params();
    const query = input.query();
    return c.json(await people.history(c.get('caller'), canvasRef(params), query));
  });

  handle(app, OPEN_CHAT_RUN, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(await people.openChatRun(c.get('caller'), canvasRef(params), body), 201);
  });

  handle(app, CHAT_RUNS, async (c, input) => {
    const params = input.params();
    return c.json({ chat_runs: await people.listChatRuns(c.get('caller'), canvasRef(params)) });
  });

  handle(app, END_CHAT_RUN, async (c, input) => {
    // Ids are parsed like every other path parameter: a U+0000 must be a 400 on SQLite and PostgreSQL alike.
    const params = input.params();
    return c.json(await people.endChatRun(c.get('caller'), { ...canvasRef(params), chatRunId: params.chat_run_id }));
  });

  handle(app, ISSUE_TOKEN, async (c, input) =>
    c.json(await people.issueToken(c.get('caller'), await input.body()), 201),
  );

  handle(app, TOKENS, async (c, input) => {
    const { project_id: projectId } = input.query();
    return c.json({ tokens: await people.listTokens(c.get('caller'), projectId) });
  });

  handle(app, REVOKE_TOKEN, async (c, input) =>
    c.json(await people.revokeToken(c.get('caller'), input.params().token_id)),
  );
}
