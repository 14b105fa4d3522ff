import type { Hono } from 'hono';
import { z } from 'zod';
import { ConnectionList, ConnectionUpdateBody, ConnectionView, ResourceId } from '../../contract/index.js';
import { authorizeProject } from '../../backend/auth/access.js';
import type { CallerContext } from '../../backend/auth/caller.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { canvasParams, ok } from '../route-parameters.js';
import { CanvasError } from '../../shared/errors.js';
import type { OAuthGrantRecord } from '../../store/oauth-grants.js';
import type { Store } from '../../store/store.js';
import type { ConnectorGrants } from '../../oauth/connector-grants.js';
import { samePerson } from '../../contract/index.js';

/**
 * The connections people made with OAuth clients, as the canvas's "Connect an agent" panel shows them: which app,
 * for whom, what it may do, when it was last used; and ending one (its tokens stop at once). A member sees the
 * canvas's connections; the person who made one, or a project owner, may end it.
 */

const grantParams = z.object({ grant_id: ResourceId });

const CONNECTIONS = apiRoute({
  method: 'get',
  path: '/api/v1/projects/:project_id/canvases/:canvas_id/connections',
  operationId: 'listConnections',
  summary: 'The OAuth clients connected to a canvas.',
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The connections.', ConnectionList) },
});

const UPDATE_CONNECTION = apiRoute({
  method: 'patch',
  path: '/api/v1/connections/:grant_id',
  operationId: 'updateConnection',
  summary:
    'Give a connection tool sets beyond the six (owners): edit, runs, exports, layout, review; they apply from its next request.',
  tag: 'people',
  auth: 'caller',
  params: grantParams,
  body: ConnectionUpdateBody,
  responses: { 200: ok('Changed.', ConnectionView) },
});

const END_CONNECTION = apiRoute({
  method: 'delete',
  path: '/api/v1/connections/:grant_id',
  operationId: 'endConnection',
  summary: 'End a connection: its tokens stop at once (the person who made it, or an owner).',
  tag: 'people',
  auth: 'caller',
  params: grantParams,
  responses: { 200: ok('Ended.', ConnectionView) },
});

export const CONNECTION_ROUTES = [CONNECTIONS, UPDATE_CONNECTION, END_CONNECTION];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function connectionView(grant: OAuthGrantRecord): ConnectionView {
  return {
    grant_id: grant.grantId,
    client_id: grant.clientId,
    client_name: grant.clientName,
    project_id: grant.projectId,
    canvas_id: grant.canvasId,
    person: grant.person,
    scopes: grant.scopes,
    agent_run_id: grant.chatRunId,
    spend_limit: grant.spendLimit,
    spent: grant.spent,
    created_at: iso(grant.createdAt)!,
    last_used_at: iso(grant.lastUsedAt),
    ended_at: iso(grant.endedAt),
    tool_sets: [...(grant.toolSets ?? [])],
  };
}

function personOf(ctx: CallerContext) {
  if (ctx.principal.kind === 'session') return ctx.principal.person;
  if (ctx.principal.kind === 'backend' && ctx.actor) return ctx.actor;
  return null;
}

export function registerConnectionRoutes(
  app: Hono<BackendHttpEnv>,
  options: { store: Store; grants: () => ConnectorGrants | null },
): void {
  const { store } = options;

  handle(app, CONNECTIONS, async (c, input) => {
    const params = input.params();
    await authorizeProject(store, c.get('caller'), params.project_id, 'viewer');
    const grants = await store.grants.onCanvas(params.project_id, params.canvas_id);
    return c.json(ConnectionList.parse({ connections: grants.map(connectionView) }));
  });

  // An owner gives a connection tool sets beyond the six: they apply from its next request.
  handle(app, UPDATE_CONNECTION, async (c, input) => {
    const { grant_id: grantId } = input.params();
    const caller = c.get('caller');
    const body = await input.body();
    const grant = await store.grants.get(grantId);
    if (!grant) throw new CanvasError('not_found', `No connection ${grantId}.`);
    await authorizeProject(store, caller, grant.projectId, 'owner');
    if (grant.endedAt !== null) throw new CanvasError('invalid_arguments', 'This connection has ended.');
    await store.grants.setToolSets(grantId, body.tool_sets);
    const person = personOf(caller);
    if (person)
      await store.team.record({
        projectId: grant.projectId,
        actor: person,
        action: 'connection.tool_sets',
        target: grantId,
        details: { tool_sets: body.tool_sets },
      });
    return c.json(connectionView((await store.grants.get(grantId))!));
  });

  handle(app, END_CONNECTION, async (c, input) => {
    const { grant_id: grantId } = input.params();
    const caller = c.get('caller');
    const grant = await store.grants.get(grantId);
    if (!grant) throw new CanvasError('not_found', `No connection ${grantId}.`);
    const role = await authorizeProject(store, caller, grant.projectId, 'viewer');
    const person = personOf(caller);
    const own = samePerson(person, grant.person);
    if (!own && role !== 'owner')
      throw new CanvasError('forbidden', 'Only the person who made this connection, or a project owner, may end it.');
    const grants = options.grants();
    if (!grants) throw new CanvasError('unavailable', 'OAuth is not available on this server yet.');
    if (grant.endedAt === null) await grants.end(grant);
    return c.json(connectionView((await store.grants.get(grantId))!));
  });
}
