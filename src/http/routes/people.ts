import type { Hono } from 'hono';
import {
  CanvasId,
  ChatRunOpenBody,
  EmailBody,
  HistoryQuery,
  ProjectId,
  ResourceId,
  TokenIssueBody,
} from '../../contract/index.js';
import { parseOrThrow } from '../../shared/errors.js';
import type { PeopleOperations } from '../../backend/people-operations.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** Routes of the people's side: who am I, chat runs, agent tokens, history (docs/api.md). */

const CANVAS = '/api/v2/projects/:project_id/canvases/:canvas_id';
const canvasParams = { project_id: ProjectId, canvas_id: CanvasId };

export function registerPeopleRoutes(app: Hono<BackendHttpEnv>, people: PeopleOperations): void {
  app.get('/api/v1/me', async (c) => c.json(await people.me(c.get('caller'))));
  app.patch('/api/v1/me/email', async (c) =>
    c.json(await people.setEmail(c.get('caller'), (await jsonBody(c, EmailBody)).email)),
  );

  app.get(`${CANVAS}/history`, async (c) => {
    const params = pathParams(c, canvasParams);
    const query = parseOrThrow(HistoryQuery, c.req.query());
    return c.json(
      await people.history(c.get('caller'), { projectId: params.project_id, canvasId: params.canvas_id }, query),
    );
  });

  app.post(`${CANVAS}/chat-runs`, async (c) => {
    const params = pathParams(c, canvasParams);
    const body = await jsonBody(c, ChatRunOpenBody);
    return c.json(
      await people.openChatRun(c.get('caller'), { projectId: params.project_id, canvasId: params.canvas_id }, body),
      201,
    );
  });

  app.get(`${CANVAS}/chat-runs`, async (c) => {
    const params = pathParams(c, canvasParams);
    return c.json({
      chat_runs: await people.listChatRuns(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
      }),
    });
  });

  app.delete(`${CANVAS}/chat-runs/:chat_run_id`, async (c) => {
    // Ids are parsed like every other path parameter: a U+0000 must be a 400 on SQLite and PostgreSQL alike.
    const params = pathParams(c, { ...canvasParams, chat_run_id: ResourceId });
    return c.json(
      await people.endChatRun(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        chatRunId: params.chat_run_id,
      }),
    );
  });

  app.post('/api/v1/tokens', async (c) =>
    c.json(await people.issueToken(c.get('caller'), await jsonBody(c, TokenIssueBody)), 201),
  );

  app.get('/api/v1/tokens', async (c) => {
    const projectId = parseOrThrow(ProjectId, c.req.query('project_id'), ['project_id']);
    return c.json({ tokens: await people.listTokens(c.get('caller'), projectId) });
  });

  app.delete('/api/v1/tokens/:token_id', async (c) =>
    c.json(await people.revokeToken(c.get('caller'), pathParams(c, { token_id: ResourceId }).token_id)),
  );
}

export const PEOPLE_ROUTE_PATHS = [
  '/api/v1/me',
  '/api/v1/me/email',
  `${CANVAS}/history`,
  `${CANVAS}/chat-runs`,
  `${CANVAS}/chat-runs/:chat_run_id`,
  '/api/v1/tokens',
  '/api/v1/tokens/:token_id',
];
