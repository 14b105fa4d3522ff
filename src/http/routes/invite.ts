import type { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { DisplayName, INVITED_ISSUER_PREFIX } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { Actor } from '../../store/records.js';
import type { InviteRecord } from '../../store/team-store.js';
import { htmlPage, noStore, sessionOf, setSessionCookie, type AuthRouteOptions } from './auth.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { page } from '../route-parameters.js';

/**
 * The page an invitation link opens (docs/api.md). Like a sign-in link, opening it (GET) spends nothing: the
 * person presses Join on this server's own page (the POST's Origin is checked). Someone not signed in gives the name
 * the team will see and is signed in as a new person of their own (issuer `canvas-mcp/invite`, subject that name, made
 * unique per invitation so a name can never take over someone else's membership).
 */

const INVITE_PAGE = apiRoute({
  method: 'get',
  path: '/invite',
  operationId: 'invitePage',
  summary: 'The page of an invitation link: who invited whom to what, and a Join button. Spends nothing.',
  tag: 'auth',
  auth: 'none',
  query: z.object({ token: z.string().meta({ description: 'The invitation secret of the link.' }) }),
  responses: {
    200: page('The invitation page.'),
    400: page('The link has no invitation.'),
    410: page('The invitation was used, withdrawn or has expired.'),
  },
});

const ACCEPT_INVITE = apiRoute({
  method: 'post',
  path: '/invite',
  operationId: 'acceptInvite',
  summary:
    "Accept an invitation from this server's own page (Origin checked): join as the signed-in person, or as a new person with the name given.",
  tag: 'auth',
  auth: 'none',
  form: z.object({
    token: z.string().meta({ description: 'The invitation secret.' }),
    name: z.string().optional().meta({ description: 'The name the team will see, when not signed in.' }),
  }),
  responses: {
    303: { description: 'Joined: to the home page (a session cookie is set for a new person).' },
    400: page('No invitation, or no name.'),
    403: page("Not sent from this server's own page."),
    410: page('The invitation was used, withdrawn or has expired.'),
  },
});

export const INVITE_ROUTES = [INVITE_PAGE, ACCEPT_INVITE];

const INVITE_ISSUER = INVITED_ISSUER_PREFIX;
const INVITE_LINK_MS = 60_000;

/** The provider people may sign in with first, when the server has one (src/backend/http/oidc-routes.ts). */
export interface InvitePageOptions {
  oidcName: string | null;
}

function invitePage(
  secret: string,
  invite: InviteRecord,
  signedInAs: Actor | null,
  pageOptions: InvitePageOptions & Pick<AuthRouteOptions, 'times'>,
  problem?: string,
) {
  const rememberDays = Math.round(pageOptions.times.rememberMs / 86_400_000);
  const next = `/invite?token=${encodeURIComponent(secret)}`;
  return htmlPage(
    'Join a project',
    html`<h1>Join project ${invite.projectId}</h1>
    <p><strong>${invite.invitedBy.subject}</strong> invited you to project <strong>${invite.projectId}</strong> as
      <strong>${invite.role}</strong>. The invitation works once and expires ${new Date(invite.expiresAt).toUTCString()}.</p>
    ${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
    <form method="post" action="/invite">
      <input type="hidden" name="token" value="${secret}" />
      ${
        signedInAs
          ? html`<p>You are signed in as <strong>${signedInAs.subject}</strong>.</p>
            <button type="submit">Join as ${signedInAs.subject}</button>`
          : html`<label>Your name, as the team will see it <input type="text" name="name" required maxlength="100" autocomplete="name" /></label>
            <p><label><input type="checkbox" name="remember" value="1" />
              Keep me signed in on this device for ${rememberDays} days (not on a shared computer)</label></p>
            <button type="submit">Join</button>`
      }
    </form>
    ${
      !signedInAs && pageOptions.oidcName
        ? html`<p>Or <a href="/auth/oidc/start?next=${encodeURIComponent(next)}">sign in with ${pageOptions.oidcName}</a> first, and join as yourself.</p>`
        : ''
    }`,
  );
}

function unusable(message: string) {
  return htmlPage(
    'Invitation not usable',
    html`<h1>This invitation cannot be used</h1>
    <p>${message}</p>
    <p>Ask an owner of the project for a new one: they make it on the project's Team page.</p>`,
  );
}

export function registerInvitePages(app: Hono<BackendHttpEnv>, options: AuthRouteOptions & InvitePageOptions): void {
  const { store } = options;

  handle(app, INVITE_PAGE, async (c) => {
    noStore(c);
    const secret = c.req.query('token');
    if (!secret) return c.html(unusable('The link has no invitation in it.'), 400);
    try {
      const invite = await store.team.peekInvite(secret);
      return c.html(invitePage(secret, invite, (await sessionOf(c, options))?.person ?? null, options));
    } catch (error) {
      if (error instanceof CanvasError && error.code === 'unauthenticated') return c.html(unusable(error.message), 410);
      throw error;
    }
  });

  handle(app, ACCEPT_INVITE, async (c) => {
    noStore(c);
    if (c.req.header('origin') !== options.publicOrigin()) {
      return c.html(
        unusable("The invitation must be accepted on this server's own page: open the link again and press Join."),
        403,
      );
    }
    const form = await c.req.parseBody();
    const secret = typeof form.token === 'string' ? form.token : '';
    if (!secret) return c.html(unusable('The form has no invitation in it.'), 400);
    try {
      const invite = await store.team.peekInvite(secret);
      const session = await sessionOf(c, options);
      let person = session?.person ?? null;
      if (!person) {
        const name = DisplayName.safeParse(typeof form.name === 'string' ? form.name.trim() : '');
        if (!name.success)
          return c.html(
            invitePage(secret, invite, null, options, 'Give the name the team will see (1 to 100 characters).'),
            400,
          );
        // A teammate who is already in the project and lost their session must not become a second person of the
        // same name: they come back signed in, then the invitation (if they still need it) adds nothing.
        const taken = (await store.team.members(invite.projectId)).find(
          (member) => member.person.subject.toLocaleLowerCase() === name.data.toLocaleLowerCase(),
        );
        if (taken) {
          return c.html(
            invitePage(
              secret,
              invite,
              null,
              options,
              `Someone named ${taken.person.subject} is already a member of this project. If that is you, sign in on this device first (an owner makes you a sign-in link on the Team page), then open this invitation again; if not, give another name.`,
            ),
            409,
          );
        }
        person = { issuer: `${INVITE_ISSUER}/${invite.id}`, subject: name.data };
      }
      await store.team.acceptInvite(secret, person);
      if (!session) {
        // A new person: signed in through a link made and spent here, the one way sessions begin.
        const link = await store.sessions.createLoginLink(person, { expiresInMs: INVITE_LINK_MS });
        const remember = form.remember === '1';
        const { sessionSecret } = await store.sessions.signIn(
          link,
          options.times,
          c.req.header('user-agent') ?? null,
          remember,
        );
        setSessionCookie(c, sessionSecret, options, remember);
      }
      return c.redirect(`/?joined=${encodeURIComponent(invite.projectId)}`, 303);
    } catch (error) {
      if (error instanceof CanvasError && error.code === 'unauthenticated') return c.html(unusable(error.message), 410);
      throw error;
    }
  });
}
