import type { Hono } from 'hono';
import { PresenceLeaveQuery, PresenceUpdateBody, pictureUrlOf, type PageOrder } from '../../contract/index.js';
import { personKeyOf } from '../../store/people-name-store.js';
import type { Actor as Person } from '../../store/records.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../../backend/auth/access.js';
import { personOf } from '../../backend/team/people-operations.js';
import { personPresenceKey, type Presence } from '../../backend/presence/presence.js';
import type { ReviewRooms } from '../../backend/review/review-rooms.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle, type RouteInput } from '../route-declaration.js';
import { CANVAS, canvasParams } from '../route-parameters.js';

/**
 * A person's page says where they are on a canvas: POST its selection and cursor (the page throttles them and repeats
 * them every 10 s), DELETE when it leaves; each with the page's tab and count, so a stale one is ignored whatever order
 * they arrive in. Any member; the rest of the team sees it through the change feed's `presence` events. Nothing is
 * stored. A presenter's review room lives by the same reports, and ends with the presenting page's leaving.
 */

const REPORT = apiRoute({
  method: 'post',
  path: `${CANVAS}/presence`,
  operationId: 'reportPresence',
  summary:
    "Where the signed-in person is on the canvas: their selection and cursor (a page sends it throttled, and at least every 10 s). Shown to the others as the feed's presence events; never stored.",
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  body: PresenceUpdateBody,
  responses: { 204: { description: 'Reported.' } },
});

const LEAVE = apiRoute({
  method: 'delete',
  path: `${CANVAS}/presence`,
  operationId: 'leaveCanvas',
  summary:
    "The person left the canvas: they are gone from the others' screens at once. With the page's tab and count, a report of that page arriving later with a lower count is ignored.",
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  query: PresenceLeaveQuery,
  responses: { 204: { description: 'Gone.' } },
});

export const PRESENCE_ROUTES = [REPORT, LEAVE];

/** How long a person's name and picture, read for their presence, are taken as they are. */
const SHOWN_AS_MS = 15_000;
/** People whose name is kept at once (the map is emptied past it: a busy server reads again, nothing grows). */
const SHOWN_AS_KEPT = 10_000;

const PRESENCE_PATH = /^\/api\/v2\/projects\/[^/]+\/canvases\/[^/]+\/presence$/;

export function isPresencePath(path: string): boolean {
  return PRESENCE_PATH.test(path);
}

/** A page's place in its order of reports (the contract refuses one of the two without the other). */
function pageOrder(tab: string | undefined, seq: number | undefined): PageOrder | null {
  return tab !== undefined && seq !== undefined ? { tab, seq } : null;
}

export function registerPresenceRoutes(
  app: Hono<BackendHttpEnv>,
  options: { store: Store; presence: Presence; rooms?: ReviewRooms | null },
): void {
  async function who(c: BackendContext, input: RouteInput<typeof REPORT | typeof LEAVE>) {
    const params = input.params();
    const caller = c.get('caller');
    const person = personOf(caller);
    if (!person) throw new CanvasError('forbidden', 'Presence is for people: sign in.');
    await authorizeProject(options.store, caller, params.project_id, 'viewer');
    await requireCanvas(options.store, params.project_id, params.canvas_id);
    return { params, person, key: personPresenceKey(person) };
  }

  // A page reports several times a second while its pointer moves: the name and picture it is shown by are read once
  // in a while, not on every report (a change shows within SHOWN_AS_MS).
  const shownAs = new Map<string, { name: string; picture: string | null; at: number }>();
  async function shownAsOf(person: Person, key: string) {
    const known = shownAs.get(key);
    const now = Date.now();
    if (known && now - known.at < SHOWN_AS_MS) return known;
    const name = (await options.store.names.nameOf(person)) ?? person.subject;
    const pictureId = (await options.store.pictures.pictureIdsOf([person])).get(personKeyOf(person));
    const fresh = { name, picture: pictureId === undefined ? null : pictureUrlOf(pictureId), at: now };
    if (shownAs.size >= SHOWN_AS_KEPT) shownAs.clear();
    shownAs.set(key, fresh);
    return fresh;
  }

  handle(app, REPORT, async (c, input) => {
    const { params, person, key } = await who(c, input);
    const body = await input.body();
    const { name, picture } = await shownAsOf(person, key);
    options.presence.report(params.project_id, params.canvas_id, {
      key,
      name,
      picture,
      selection: body.selection,
      cursor: body.cursor,
      order: pageOrder(body.tab, body.seq),
    });
    options.rooms?.heardFrom(params.project_id, params.canvas_id, key);
    return c.body(null, 204);
  });

  handle(app, LEAVE, async (c, input) => {
    const { params, key } = await who(c, input);
    const query = input.namedQuery();
    await options.rooms?.left(params.project_id, params.canvas_id, key, query.tab ?? null);
    options.presence.leave(
      params.project_id,
      params.canvas_id,
      key,
      pageOrder(query.tab, query.seq === undefined ? undefined : Number(query.seq)),
    );
    return c.body(null, 204);
  });
}
