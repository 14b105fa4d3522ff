import type { Hono } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { CanvasError } from '../../shared/errors.js';
import type { SessionTimes } from '../../store/session-store.js';
import type { Store } from '../../store/store.js';
import type { BackendHttpEnv } from './http-env.js';
import { SESSION_COOKIE } from './session-auth.js';

/**
 * Sign-in by one-time link, and sign-out (docs/security.md, "People"). A link opens a session and leads to its canvas
 * (or the project list); a link that cannot be used says why and what to do, in a page a person can read.
 */

export interface AuthRouteOptions {
  store: Store;
  times: SessionTimes;
  /** Whether people reach the server over https (the cookie is then Secure). */
  secureCookie: () => boolean;
}

export function canvasPath(projectId: string, canvasId: string): string {
  return `/p/${encodeURIComponent(projectId)}/c/${encodeURIComponent(canvasId)}`;
}

function explanation(message: string) {
  return html`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Sign-in link not usable · canvas-mcp</title>
    <style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}code{background:#f2f2f5;padding:.1rem .3rem;border-radius:4px}</style>
  </head>
  <body>
    <h1>This sign-in link cannot be used</h1>
    <p>${message}</p>
    <p>Sign-in links work once and for a short time. Ask the person who runs this server for a new one; they make it
      with <code>npm run -s cli -- admin login-link --issuer … --subject …</code>.</p>
  </body>
</html>`;
}

export function registerAuthRoutes(app: Hono<BackendHttpEnv>, options: AuthRouteOptions): void {
  app.get('/auth/login', async (c) => {
    const secret = c.req.query('token');
    if (!secret) return c.html(explanation('The link has no sign-in token in it.'), 400);
    try {
      const { sessionSecret, link } = await options.store.sessions.signIn(secret, options.times);
      setCookie(c, SESSION_COOKIE, sessionSecret, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: options.secureCookie(),
        path: '/',
        maxAge: Math.floor(options.times.absoluteMs / 1000),
      });
      c.header('cache-control', 'no-store');
      const target = link.projectId && link.canvasId ? canvasPath(link.projectId, link.canvasId) : '/';
      return c.redirect(target, 303);
    } catch (error) {
      if (error instanceof CanvasError && error.code === 'unauthenticated') return c.html(explanation(error.message), 401);
      throw error;
    }
  });

  app.post('/auth/logout', async (c) => {
    const caller = c.get('caller');
    if (caller.principal.kind !== 'session') throw new CanvasError('invalid_arguments', 'Only a signed-in person signs out; a token is revoked instead.');
    await options.store.sessions.endSession(caller.principal.sessionId);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.body(null, 204);
  });
}
