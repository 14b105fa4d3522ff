import type { Hono } from 'hono';
import { ResourceId, type SessionView } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { SessionTimes } from '../../store/session-store.js';
import type { Store } from '../../store/store.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { pathParams } from '../request-parsing.js';

/**
 * A person's own sessions (issue 21): where they are signed in (which browser, since when, last seen), and signing
 * out any one of them, this one included. Only the person's own: a session never sees or ends another person's.
 */

export const SESSION_ROUTE_PATHS = ['/api/v1/me/sessions', '/api/v1/me/sessions/:session_id'];

export function registerSessionRoutes(app: Hono<BackendHttpEnv>, options: { store: Store; times: SessionTimes }): void {
  function signedInSession(c: BackendContext) {
    const { principal } = c.get('caller');
    if (principal.kind !== 'session')
      throw new CanvasError('forbidden', 'Sessions are listed for a signed-in person; a token has none.');
    return principal;
  }

  app.get('/api/v1/me/sessions', async (c) => {
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

  app.delete('/api/v1/me/sessions/:session_id', async (c) => {
    const current = signedInSession(c);
    const { session_id } = pathParams(c, { session_id: ResourceId });
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
