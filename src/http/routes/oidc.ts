import { SignInMethods } from '../../contract/index.js';
import type { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type * as Oidc from 'openid-client';
import { z } from 'zod';
import type { Logger } from '../../shared/logger.js';
import { LOOPBACK_HOSTNAMES } from '../../shared/hosts.js';
import { htmlPage, noStore, sessionOf, setSessionCookie, type AuthRouteOptions } from './auth.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { ok, page } from '../route-parameters.js';

/**
 * OpenID Connect sign-in beside links (docs/security.md, "People"): the authorization code flow with PKCE,
 * state and nonce, through `openid-client` (discovery, the token request, ID token checks). A person signed in this
 * way is the provider's (`iss`, `sub`), the same kind of person a link signs in: their memberships are the ones an
 * owner or an invitation gave that pair. The flow's secrets wait in a short-lived HttpOnly cookie of this browser,
 * so any server of a deployment can finish what another began.
 */

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** None: a public client, which PKCE alone protects. */
  clientSecret?: string | undefined;
  /** What the button calls the provider. */
  name: string;
}

const FLOW_COOKIE = 'canvas_mcp_oidc';
const FLOW_SECONDS = 600;
export const OIDC_START_PATH = '/auth/oidc/start';
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
/** The session a sign-in opens begins, as every session does, with a one-time link, made and spent here. */
const SIGN_IN_LINK_MS = 60_000;

const SIGN_IN_METHODS = apiRoute({
  method: 'get',
  path: '/api/v1/auth/methods',
  operationId: 'signInMethods',
  summary: 'How people sign in here: links, and the OpenID Connect provider when one is configured.',
  tag: 'auth',
  auth: 'none',
  responses: {
    200: ok('The ways to sign in.', SignInMethods),
  },
});

const OIDC_START = apiRoute({
  method: 'get',
  path: OIDC_START_PATH,
  operationId: 'oidcSignIn',
  summary: 'Begin an OpenID Connect sign-in (authorization code with PKCE): a redirect to the provider.',
  tag: 'auth',
  auth: 'none',
  query: z.object({
    next: z
      .string()
      .optional()
      .meta({ description: 'A page of this server to open afterwards (a canvas, an invitation, an OAuth consent).' }),
  }),
  responses: {
    302: { description: 'To the provider.' },
    404: page('This server has no OpenID Connect provider configured.'),
    503: page('The provider could not be reached.'),
  },
});

const OIDC_CALLBACK = apiRoute({
  method: 'get',
  path: OIDC_CALLBACK_PATH,
  operationId: 'oidcCallback',
  summary:
    'Where the provider sends the browser back: the code is exchanged, the ID token checked, and a session opened for its (iss, sub).',
  tag: 'auth',
  auth: 'none',
  query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
  responses: {
    303: { description: 'Signed in: to the page the sign-in began for.' },
    400: page('No sign-in begun in this browser.'),
    401: page('Refused.'),
  },
});

export const OIDC_ROUTES = [SIGN_IN_METHODS, OIDC_START, OIDC_CALLBACK];

const Flow = z.object({ verifier: z.string(), state: z.string(), nonce: z.string(), next: z.string() });

/** Where a sign-in may lead afterwards: pages of this server only (a canvas, an invitation, an OAuth consent). */
const NEXT = /^\/(?:|p\/[^?#\\]*|invite\?token=[\w.-]+|oauth-ui\/interaction\/[A-Za-z0-9_-]{1,128})$/;
export function safeNext(next: string | undefined): string {
  return next && NEXT.test(next) ? next : '/';
}

function problem(message: string) {
  return htmlPage(
    'Sign-in did not work',
    html`<h1>The sign-in did not work</h1>
    <p>${message}</p>
    <p><a href="/">Back to canvas-mcp</a></p>`,
  );
}

/** The sign-in routes; without settings they say that this server signs people in with links only. */
export function registerOidcRoutes(
  app: Hono<BackendHttpEnv>,
  settings: OidcSettings | null,
  options: AuthRouteOptions & { logger: Logger },
): void {
  if (!settings) {
    handle(app, SIGN_IN_METHODS, (c) =>
      c.json({ links: true, oidc: null, email: !!options.mailer } satisfies SignInMethods),
    );
    for (const route of [OIDC_START, OIDC_CALLBACK]) {
      handle(app, route, (c) => {
        noStore(c);
        return c.html(
          problem('This server signs people in with links only: ask the person who runs it for a sign-in link.'),
          404,
        );
      });
    }
    return;
  }
  let configuration: Promise<Oidc.Configuration> | null = null;
  // openid-client (and jose under it) is imported by the first sign-in through the provider, not at the server's start.
  const client = () => import('openid-client');
  const issuer = new URL(settings.issuer);
  // A provider over plain http is accepted on a loopback address only (a local stand-in, a development setup).
  const insecure = issuer.protocol === 'http:' && LOOPBACK_HOSTNAMES.includes(issuer.hostname);
  const discover = () =>
    (configuration ??= client()
      .then((oidc) =>
        oidc.discovery(
          issuer,
          settings.clientId,
          settings.clientSecret,
          settings.clientSecret ? undefined : oidc.None(),
          insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
        ),
      )
      .catch((error: unknown) => {
        configuration = null;
        throw error;
      }));
  const redirectUri = () => `${options.publicOrigin()}${OIDC_CALLBACK_PATH}`;

  handle(app, SIGN_IN_METHODS, (c) =>
    c.json({
      links: true,
      oidc: { name: settings.name, start: OIDC_START_PATH },
      email: !!options.mailer,
    } satisfies SignInMethods),
  );

  handle(app, OIDC_START, async (c) => {
    noStore(c);
    let config: Oidc.Configuration;
    try {
      config = await discover();
    } catch (error) {
      options.logger.warn({ err: error, issuer: settings.issuer }, 'OpenID Connect discovery failed');
      return c.html(
        problem(`${settings.name} could not be reached just now. Try again in a moment, or sign in with a link.`),
        503,
      );
    }
    const oidc = await client();
    const flow = {
      verifier: oidc.randomPKCECodeVerifier(),
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      next: safeNext(c.req.query('next')),
    };
    setCookie(c, FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
      httpOnly: true,
      sameSite: 'Lax',
      secure: options.secureCookie(),
      path: '/auth/oidc',
      maxAge: FLOW_SECONDS,
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(),
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return c.redirect(url.href, 302);
  });

  handle(app, OIDC_CALLBACK, async (c) => {
    noStore(c);
    const saved = getCookie(c, FLOW_COOKIE);
    deleteCookie(c, FLOW_COOKIE, { path: '/auth/oidc' });
    const flow = saved ? Flow.safeParse(JSON.parse(Buffer.from(saved, 'base64url').toString('utf8') || 'null')) : null;
    if (!flow?.success)
      return c.html(
        problem('This sign-in was not started in this browser, or took longer than 10 minutes. Start it again.'),
        400,
      );
    const denied = c.req.query('error');
    if (denied) return c.html(problem(`${settings.name} did not sign you in (${denied}).`), 401);
    try {
      const config = await discover();
      const oidc = await client();
      const current = new URL(`${options.publicOrigin()}${c.req.path}${new URL(c.req.url).search}`);
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.data.verifier,
        expectedState: flow.data.state,
        expectedNonce: flow.data.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      const person = { issuer: claims.iss, subject: claims.sub };
      const previous = await sessionOf(c, options);
      const link = await options.store.sessions.createLoginLink(person, { expiresInMs: SIGN_IN_LINK_MS });
      const { sessionSecret } = await options.store.sessions.signIn(
        link,
        options.times,
        c.req.header('user-agent') ?? null,
      );
      if (previous) await options.store.sessions.endSession(previous.id);
      setSessionCookie(c, sessionSecret, options);
      return c.redirect(flow.data.next, 303);
    } catch (error) {
      options.logger.warn({ err: error }, 'an OpenID Connect sign-in was refused');
      return c.html(
        problem(`${settings.name} answered something this server could not accept: ${(error as Error).message}`),
        401,
      );
    }
  });
}
