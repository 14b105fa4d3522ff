import type { Hono } from 'hono';
import {
  CanvasId,
  ConnectionList,
  ConnectionUpdateBody,
  ProjectId,
  ResourceId,
  type ConnectionView,
} from '../../contract/index.js';
import { authorizeProject } from '../../backend/auth/access.js';
import type { CallerContext } from '../../backend/auth/caller.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';
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

export const CONNECTION_ROUTE_PATHS = [
  '/api/v1/projects/:project_id/canvases/:canvas_id/connections',
  '/api/v1/connections/:grant_id',
];

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

  app.get(CONNECTION_ROUTE_PATHS[0]!, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    await authorizeProject(store, c.get('caller'), params.project_id, 'viewer');
    const grants = await store.grants.onCanvas(params.project_id, params.canvas_id);
    return c.json(ConnectionList.parse({ connections: grants.map(connectionView) }));
  });

  // An owner gives a connection tool sets beyond the six (issue 34, item 2): they apply from its next request.
  app.patch(CONNECTION_ROUTE_PATHS[1]!, async (c) => {
    const { grant_id: grantId } = pathParams(c, { grant_id: ResourceId });
    const caller = c.get('caller');
    const body = await jsonBody(c, ConnectionUpdateBody);
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

  app.delete(CONNECTION_ROUTE_PATHS[1]!, async (c) => {
    const { grant_id: grantId } = pathParams(c, { grant_id: ResourceId });
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
