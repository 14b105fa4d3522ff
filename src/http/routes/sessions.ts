import type { Hono } from 'hono';
import { z } from 'zod';
import { ResourceId, SessionList, type SessionView } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { SessionTimes } from '../../store/session-store.js';
import type { Store } from '../../store/store.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { ok } from '../route-parameters.js';

/**
 * A person's own sessions: where they are signed in (which browser, since when, last seen), and signing out any one of
 * them, this one included. Only the person's own: a session never sees or ends another person's.
 */

const MY_SESSIONS = apiRoute({
  method: 'get',
  path: '/api/v1/me/sessions',
  operationId: 'listMySessions',
  summary: "The signed-in person's live sessions: which browser, since when, last seen, and which is this one.",
  tag: 'people',
  auth: 'caller',
  responses: { 200: ok('The sessions.', SessionList) },
});

const END_MY_SESSION = apiRoute({
  method: 'delete',
  path: '/api/v1/me/sessions/:session_id',
  operationId: 'endMySession',
  summary: "Sign out one of the person's own sessions (this one included); its open feeds end too.",
  tag: 'people',
  auth: 'caller',
  params: z.object({ session_id: ResourceId }),
  responses: { 204: { description: 'Signed out.' } },
});

export const SESSION_ROUTES = [MY_SESSIONS, END_MY_SESSION];

export function registerSessionRoutes(app: Hono<BackendHttpEnv>, options: { store: Store; times: SessionTimes }): void {
  function signedInSession(c: BackendContext) {
    const { principal } = c.get('caller');
    if (principal.kind !== 'session')
      throw new CanvasError('forbidden', 'Sessions are listed for a signed-in person; a token has none.');
    return principal;
  }

  handle(app, MY_SESSIONS, async (c) => {
    const current = signedInSession(c);
    const sessions: SessionView[] = (await options.store.sessions.sessionsOf(current.person, options.times)).map(
      (session) => ({
        session_id: session.id,
        device: session.device,
        created_at: new Date(session.createdAt).toISOString(),
        last_seen_at: new Date(session.lastSeenAt).toISOString(),
        current: session.id === current.sessionId,
      }),
    );
    return c.json({ sessions });
  });

  handle(app, END_MY_SESSION, async (c, input) => {
    const current = signedInSession(c);
    const { session_id } = input.params();
    const session = await options.store.sessions.getSession(session_id);
    // Another person's session is answered as one that does not exist.
    if (
      !session ||
      session.person.issuer !== current.person.issuer ||
      session.person.subject !== current.person.subject
    ) {
      throw new CanvasError('not_found', `No session ${session_id} of yours.`);
    }
    await options.store.sessions.endSession(session_id);
    return c.body(null, 204);
  });
}
