import type { Hono } from 'hono';
import { CanvasId, PresenceLeaveQuery, ProjectId, PresenceUpdateBody, type PageOrder } from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../../backend/auth/access.js';
import { personOf } from '../../backend/people-operations.js';
import type { Presence } from '../../backend/presence/presence.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/**
 * A person's page says where they are on a canvas (issue 21): POST its selection and cursor (the page throttles
 * them and repeats them every 10 s), DELETE when it leaves; each with the page's tab and count, so a stale one is
 * ignored whatever order they arrive in. Any member; the rest of the team sees it through the
 * change feed's `presence` events. Nothing is stored.
 */

export const PRESENCE_ROUTE_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/presence';
const PRESENCE_PATH = /^\/api\/v2\/projects\/[^/]+\/canvases\/[^/]+\/presence$/;

export function isPresencePath(path: string): boolean {
  return PRESENCE_PATH.test(path);
}

/** A page's place in its order of reports (the contract refuses one of the two without the other). */
function pageOrder(tab: string | undefined, seq: number | undefined): PageOrder | null {
  return tab !== undefined && seq !== undefined ? { tab, seq } : null;
}

export function registerPresenceRoutes(app: Hono<BackendHttpEnv>, options: { store: Store; presence: Presence }): void {
  async function who(c: BackendContext) {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    const caller = c.get('caller');
    const person = personOf(caller);
    if (!person) throw new CanvasError('forbidden', 'Presence is for people: sign in.');
    await authorizeProject(options.store, caller, params.project_id, 'viewer');
    await requireCanvas(options.store, params.project_id, params.canvas_id);
    return { params, person, key: `person:${person.issuer}|${person.subject}` };
  }

  app.post(PRESENCE_ROUTE_PATH, async (c) => {
    const { params, person, key } = await who(c);
    const body = await jsonBody(c, PresenceUpdateBody);
    options.presence.report(params.project_id, params.canvas_id, {
      key,
      name: person.subject,
      selection: body.selection,
      cursor: body.cursor,
      order: pageOrder(body.tab, body.seq),
    });
    return c.body(null, 204);
  });

  app.delete(PRESENCE_ROUTE_PATH, async (c) => {
    const { params, key } = await who(c);
    const query = parseOrThrow(PresenceLeaveQuery, { tab: c.req.query('tab'), seq: c.req.query('seq') }, ['query']);
    options.presence.leave(
      params.project_id,
      params.canvas_id,
      key,
      pageOrder(query.tab, query.seq === undefined ? undefined : Number(query.seq)),
    );
    return c.body(null, 204);
  });
}
