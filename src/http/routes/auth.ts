import type { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { CanvasError } from '../../shared/errors.js';
import type { Actor } from '../../store/records.js';
import { REMEMBERED_AT_MOST_MS, type LoginLinkRecord, type SessionTimes } from '../../store/session-store.js';
import type { Store } from '../../store/store.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { SESSION_COOKIE } from '../session-auth.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { z } from 'zod';
import { samePerson } from '../../contract/index.js';
import { signInLinkMail, type Mailer } from '../../backend/team/mailer.js';
import { apiRoute, handle } from '../route-declaration.js';
import { page } from '../route-parameters.js';

/**
 * Sign-in by one-time link, and sign-out (docs/security.md, "People"). Opening a link (GET) spends nothing: it shows a
 * page that says who the link signs in, and the person's click POSTs it from this server's own page (the Origin is
 * checked). So an image an agent points at a link, a cross-site navigation or a chat app's link preview cannot burn a
 * link or sign a browser in as someone else (login CSRF). A browser already signed in as another person is
 * asked before its session is replaced.
 */

export interface AuthRouteOptions {
  store: Store;
  times: SessionTimes;
  /** Whether people reach the server over https (the cookie is then Secure). */
  secureCookie: () => boolean;
  /** The origin people open the server at: a sign-in POST must come from it. */
  publicOrigin: () => string;
  /** Told when a person signs out: their OAuth authorization sessions end with their session here. */
  signedOut?: (person: Actor) => Promise<void>;
  /** E-mail through the operator's SMTP relay, when there is one: people ask for their own sign-in links. */
  mailer?: Mailer | null;
}

const SIGN_IN_PAGE = apiRoute({
  method: 'get',
  path: '/auth/login',
  operationId: 'signInPage',
  summary: 'The page of a one-time sign-in link: who it signs in, and a button that does it. Spends nothing.',
  tag: 'auth',
  auth: 'none',
  query: z.object({ token: z.string().meta({ description: 'The sign-in secret of the link.' }) }),
  responses: {
    200: page('The confirmation page (it warns when this browser is signed in as someone else).'),
    400: page('The link has no token.'),
    401: page('The link is spent, expired or unknown: a page saying what to do.'),
  },
});

const SIGN_IN = apiRoute({
  method: 'post',
  path: '/auth/login',
  operationId: 'signIn',
  summary: "Spend a one-time sign-in link and open a session (from this server's own page: Origin checked).",
  tag: 'auth',
  auth: 'none',
  form: z.object({
    token: z.string().optional().meta({ description: 'The sign-in secret of the link.' }),
    link: z
      .string()
      .optional()
      .meta({ description: 'Or the whole sign-in link, pasted (the consent page of an OAuth client).' }),
    next: z
      .string()
      .optional()
      .meta({ description: 'An OAuth consent page of this server to return to instead of the canvas.' }),
    replace: z
      .literal('1')
      .optional()
      .meta({ description: 'Replace the session of another person this browser has (the page asked).' }),
  }),
  responses: {
    303: {
      description: 'Signed in: the session cookie is set and the browser goes to the canvas (or /).',
      headers: { location: 'Where to go next.', 'set-cookie': 'The session cookie (HttpOnly).' },
    },
    400: page('The form has no token.'),
    401: page('The link is spent, expired or unknown: a page saying what to do.'),
    403: page("The form did not come from this server's own page (Origin)."),
    409: page('This browser is signed in as another person: the page asks again.'),
  },
});

const EMAIL_LINK = apiRoute({
  method: 'post',
  path: '/auth/email-link',
  operationId: 'emailSignInLink',
  summary:
    "Ask for a sign-in link by e-mail (a form of the sign-in page; only where the server has an SMTP relay). The answer is the same whether or not the address is someone's here.",
  tag: 'auth',
  auth: 'none',
  responses: { 200: { description: 'A page saying a link is on its way if the address is known.' } },
});

const SIGN_OUT = apiRoute({
  method: 'post',
  path: '/auth/logout',
  operationId: 'signOut',
  summary: "End the caller's session.",
  tag: 'auth',
  auth: 'caller',
  responses: { 204: { description: 'Signed out; the cookie is cleared.' } },
});

export const AUTH_ROUTES = [SIGN_IN_PAGE, SIGN_IN, EMAIL_LINK, SIGN_OUT];

/** An e-mailed sign-in link lasts this long. */
const EMAILED_LINK_MS = 15 * 60_000;

/** Where a sign-in may return to instead of the canvas: an OAuth consent page of this server. */
const NEXT_PAGE = /^\/oauth-ui\/interaction\/[A-Za-z0-9_-]{1,128}$/;

/** The sign-in token in a pasted link (or the token itself). */
function tokenOfLink(link: string): string {
  const trimmed = link.trim();
  try {
    return new URL(trimmed).searchParams.get('token') ?? '';
  } catch {
    return trimmed;
  }
}

export function canvasPath(projectId: string, canvasId: string): string {
  return `/p/${encodeURIComponent(projectId)}/c/${encodeURIComponent(canvasId)}`;
}

const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}
code{background:#f2f2f5;padding:.1rem .3rem;border-radius:4px}
button{font:inherit;padding:.55rem 1.1rem;border-radius:8px;border:1px solid #1f4fd1;background:#1f4fd1;color:#fff;cursor:pointer}
.note{background:#fff6e0;border:1px solid #e8c36a;border-radius:8px;padding:.75rem 1rem}
.error{background:#fdecec;border:1px solid #e39a9a;border-radius:8px;padding:.75rem 1rem}
label{display:block;margin:.4rem 0}select,input[type=text],input[type=number]{font:inherit;padding:.35rem .5rem;max-width:100%}
fieldset{border:1px solid #d7d9e0;border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
button.secondary{background:#fff;color:#1f4fd1}`;

/** A page of this server's own (sign-in, connector consent): plain HTML, no script. */
export function htmlPage(title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>${title} · canvas-mcp</title>
    <style>${PAGE_STYLE}</style>
  </head>
  <body>${body}</body>
</html>`;
}

function explanation(message: string) {
  return htmlPage(
    'Sign-in link not usable',
    html`<h1>This sign-in link cannot be used</h1>
    <p>${message}</p>
    <p>Sign-in links work once and for a short time. Ask the person who runs this server for a new one; they make it
      with <code>npm run -s cli -- admin login-link --issuer … --subject …</code>.</p>`,
  );
}

const who = (person: Actor) => `${person.subject} (${person.issuer})`;

function confirmation(secret: string, link: LoginLinkRecord, signedInAs: Actor | null, rememberDays: number) {
  const other = signedInAs && !samePerson(signedInAs, link.person) ? signedInAs : null;
  const destination =
    link.projectId && link.canvasId
      ? html`canvas <strong>${link.canvasId}</strong> of project <strong>${link.projectId}</strong>`
      : html`your projects`;
  return htmlPage(
    'Sign in',
    html`<h1>Sign in to canvas-mcp</h1>
    <p>This link signs you in as <strong>${who(link.person)}</strong> and opens ${destination}.</p>
    ${
      other
        ? html`<p class="note" role="alert">This browser is signed in as <strong>${who(other)}</strong>. Signing in with this link signs
          ${other.subject} out here. If you did not expect this link, close this page.</p>`
        : ''
    }
    <form method="post" action="/auth/login">
      <input type="hidden" name="token" value="${secret}" />
      ${other ? html`<input type="hidden" name="replace" value="1" />` : ''}
      <p><label><input type="checkbox" name="remember" value="1" /> Keep me signed in on this device for
        ${rememberDays} days (not on a shared computer)</label></p>
      <button type="submit">Sign in as ${link.person.subject}</button>
    </form>`,
  );
}

/** Headers of every page of ours: never cached, never framed, no script, forms post only here. */
export function noStore(c: BackendContext): void {
  c.header('cache-control', 'no-store');
  // Not no-referrer: with it, a browser sends `Origin: null` on the form's POST, which the Origin check refuses.
  c.header('referrer-policy', 'same-origin');
  c.header('x-frame-options', 'DENY');
  c.header(
    'content-security-policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
}

/** The session cookie a sign-in sets: HTTP only, sent on top-level navigations (Lax), Secure over https. */
export function setSessionCookie(
  c: BackendContext,
  sessionSecret: string,
  options: Pick<AuthRouteOptions, 'secureCookie' | 'times'>,
  remember = false,
): void {
  setCookie(c, SESSION_COOKIE, sessionSecret, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: options.secureCookie(),
    path: '/',
    // A remembered session renews itself on the server as it is used (src/store/session-store.ts): its cookie is kept
    // as long as it could last, and the server says when it has ended.
    maxAge: Math.floor((remember ? REMEMBERED_AT_MOST_MS : options.times.absoluteMs) / 1000),
  });
}

const rememberDays = (options: Pick<AuthRouteOptions, 'times'>) => Math.round(options.times.rememberMs / 86_400_000);

/** The session a browser's cookie holds, if it is live. */
export async function sessionOf(c: BackendContext, options: Pick<AuthRouteOptions, 'store' | 'times'>) {
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie
    ? ((await options.store.sessions.findSession(cookie, options.times, c.req.header('user-agent'))) ?? null)
    : null;
}

export function registerAuthRoutes(app: Hono<BackendHttpEnv>, options: AuthRouteOptions): void {
  /** The person this browser is signed in as now, if any. */
  const signedInAs = (c: BackendContext) => sessionOf(c, options);

  /**
   * "E-mail me a sign-in link": a person whose session ended comes back on their own. The answer is the same whether or
   * not the address is someone's here (no address book to probe), and asking is bounded per address and per browser's
   * network address.
   */
  const perAddress = new RateLimiterMemory({ points: 3, duration: 3600 });
  const perClient = new RateLimiterMemory({ points: 20, duration: 3600 });
  handle(app, EMAIL_LINK, async (c) => {
    noStore(c);
    if (!options.mailer) return c.html(explanation('This server does not send sign-in links by e-mail.'), 404);
    if (c.req.header('origin') !== options.publicOrigin())
      return c.html(explanation("Ask for the link on this server's own sign-in page."), 403);
    const form = await c.req.parseBody();
    const email = z
      .email()
      .max(254)
      .safeParse(typeof form.email === 'string' ? form.email.trim() : '');
    if (!email.success) return c.html(explanation('Give the e-mail address you set on your canvases page.'), 400);
    const client = c.env.incoming?.socket.remoteAddress ?? 'unknown';
    const allowed = await Promise.all([
      perAddress.consume(email.data.toLowerCase()).then(
        () => true,
        () => false,
      ),
      perClient.consume(client).then(
        () => true,
        () => false,
      ),
    ]);
    const sent = htmlPage(
      'Check your e-mail',
      html`<h1>Check your e-mail</h1>
      <p>If ${email.data} is the address of someone on this server, a sign-in link is on its way. It works once, for 15
        minutes.</p>`,
    );
    if (allowed.includes(false)) return c.html(sent, 200);
    const person = await options.store.emails.personWithEmail(email.data);
    if (person) {
      const secret = await options.store.sessions.createLoginLink(person, { expiresInMs: EMAILED_LINK_MS });
      await options.mailer.send({
        to: email.data,
        subject: 'Your canvas-mcp sign-in link',
        text: signInLinkMail(`${options.publicOrigin()}/auth/login?token=${secret}`, 'You asked for a sign-in link.'),
      });
    }
    return c.html(sent, 200);
  });

  handle(app, SIGN_IN_PAGE, async (c) => {
    noStore(c);
    const secret = c.req.query('token');
    if (!secret) return c.html(explanation('The link has no sign-in token in it.'), 400);
    try {
      const link = await options.store.sessions.peekLoginLink(secret);
      return c.html(confirmation(secret, link, (await signedInAs(c))?.person ?? null, rememberDays(options)));
    } catch (error) {
      if (error instanceof CanvasError && error.code === 'unauthenticated')
        return c.html(explanation(error.message), 401);
      throw error;
    }
  });

  handle(app, SIGN_IN, async (c) => {
    noStore(c);
    // Only this server's own sign-in page may spend a link: a cross-site form cannot sign a browser in.
    if (c.req.header('origin') !== options.publicOrigin()) {
      return c.html(
        explanation("The sign-in must be confirmed on this server's own page: open the link again and press Sign in."),
        403,
      );
    }
    const form = await c.req.parseBody();
    // The consent page of an OAuth client signs a person in with a pasted link and comes back (src/oauth/).
    const secret =
      typeof form.token === 'string' ? form.token : typeof form.link === 'string' ? tokenOfLink(form.link) : '';
    const next = typeof form.next === 'string' && NEXT_PAGE.test(form.next) ? form.next : null;
    if (!secret) return c.html(explanation('The sign-in form has no sign-in token in it.'), 400);
    try {
      const current = await signedInAs(c);
      const link = await options.store.sessions.peekLoginLink(secret);
      const same = samePerson(current?.person, link.person);
      if (current && !same && form.replace !== '1')
        return c.html(confirmation(secret, link, current.person, rememberDays(options)), 409);
      const remember = form.remember === '1';
      const { sessionSecret } = await options.store.sessions.signIn(
        secret,
        options.times,
        c.req.header('user-agent') ?? null,
        remember,
      );
      if (current && !same) await options.store.sessions.endSession(current.id);
      setSessionCookie(c, sessionSecret, options, remember);
      const target = next ?? (link.projectId && link.canvasId ? canvasPath(link.projectId, link.canvasId) : '/');
      return c.redirect(target, 303);
    } catch (error) {
      if (error instanceof CanvasError && error.code === 'unauthenticated')
        return c.html(explanation(error.message), 401);
      throw error;
    }
  });

  handle(app, SIGN_OUT, async (c) => {
    const caller = c.get('caller');
    if (caller.principal.kind !== 'session')
      throw new CanvasError('invalid_arguments', 'Only a signed-in person signs out; a token is revoked instead.');
    await options.store.sessions.endSession(caller.principal.sessionId);
    // Signing out here signs out of the authorization server too: a shared browser's next connection request asks who
    // is there again.
    await options.signedOut?.(caller.principal.person);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.body(null, 204);
  });
}
