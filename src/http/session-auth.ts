import { getCookie } from 'hono/cookie';
import { CanvasError } from '../shared/errors.js';
import type { SessionTimes } from '../store/session-store.js';
import type { Store } from '../store/store.js';
import type { SessionPrincipal } from '../backend/auth/principal.js';
import type { BackendContext } from './http-env.js';

/**
 * A person's session, from the HttpOnly cookie the sign-in set (docs/security.md, "People"). The cookie is read by the
 * backend API only; /mcp never looks at it (spec: Authentication 2).
 */

import { SESSION_COOKIE } from '../backend/auth/session-cookie.js';

export { SESSION_COOKIE };
/** The header a page of ours sends with every write; a cross-site form cannot send it. */
export const REQUESTED_BY_HEADER = 'x-requested-by';
export const REQUESTED_BY_VALUE = 'canvas-mcp';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionAuthOptions {
  store: Store;
  times: SessionTimes;
  /** The origin people open the canvas at (scheme, host and port), resolved once the server listens. */
  publicOrigin: () => string;
}

export function sessionReader(options: SessionAuthOptions) {
  return async function readSession(c: BackendContext): Promise<SessionPrincipal | null> {
    const secret = getCookie(c, SESSION_COOKIE);
    if (!secret) return null;
    const session = await options.store.sessions.findSession(secret, options.times, c.req.header('user-agent'));
    if (!session) throw new CanvasError('unauthenticated', 'Your session has ended: sign in again.');
    // A write with a cookie must come from our own page: the same origin, and a header no cross-site form can send.
    if (!SAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin !== options.publicOrigin() || c.req.header(REQUESTED_BY_HEADER) !== REQUESTED_BY_VALUE) {
        throw new CanvasError(
          'forbidden',
          `A signed-in write must come from this server's own page (Origin ${options.publicOrigin()} and ${REQUESTED_BY_HEADER}: ${REQUESTED_BY_VALUE}).`,
        );
      }
    }
    return { kind: 'session', sessionId: session.id, person: session.person };
  };
}
