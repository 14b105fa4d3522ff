import type { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import {
  CanvasChangeBody,
  CanvasCreateBody,
  CanvasDuplicateBody,
  CanvasId,
  DeleteConfirmBody,
  DisplayName,
  InviteCreateBody,
  ProjectChangeBody,
  ProjectCreateBody,
  ProjectId,
  ResourceId,
  RoleChangeBody,
} from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import type { Actor } from '../../store/records.js';
import type { InviteRecord } from '../../store/team-store.js';
import { memberOf, type TeamOperations } from '../../backend/team-operations.js';
import { htmlPage, noStore, sessionOf, setSessionCookie, type AuthRouteOptions } from './auth.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/**
 * A project's team over HTTP (issue 21, docs/api.md): members, invitations, canvases, the audit log; and the page an
 * invitation link opens. Like a sign-in link, opening it (GET) spends nothing: the person presses Join on this server's
 * own page (the POST's Origin is checked). Someone not signed in gives the name the team will see and is signed in as a
 * new person of their own (issuer `canvas-mcp/invite`, subject that name, made unique per invitation so a name can never
 * take over someone else's membership).
 */

const PROJECT = '/api/v1/projects/:project_id';
const MEMBER = `${PROJECT}/members/:issuer/:subject`;
const projectParams = { project_id: ProjectId };
const NonEmpty = z.string().min(1).max(500);
const AuditQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) });

export const INVITE_ISSUER = 'canvas-mcp/invite';
const INVITE_LINK_MS = 60_000;

export function registerTeamRoutes(
  app: Hono<BackendHttpEnv>,
  team: TeamOperations,
  options: AuthRouteOptions & InvitePageOptions,
): void {
  app.get(`${PROJECT}/members`, async (c) =>
    c.json({ members: await team.members(c.get('caller'), pathParams(c, projectParams).project_id) }),
  );

  app.patch(MEMBER, async (c) => {
    const params = pathParams(c, { ...projectParams, issuer: NonEmpty, subject: NonEmpty });
    const body = await jsonBody(c, RoleChangeBody);
    return c.json(
      await team.changeRole(c.get('caller'), params.project_id, memberOf(params.issuer, params.subject), body),
    );
  });

  app.delete(MEMBER, async (c) => {
    const params = pathParams(c, { ...projectParams, issuer: NonEmpty, subject: NonEmpty });
    await team.removeMember(c.get('caller'), params.project_id, memberOf(params.issuer, params.subject));
    return c.body(null, 204);
  });

  app.post(`${MEMBER}/sign-in-link`, async (c) => {
    const params = pathParams(c, { ...projectParams, issuer: NonEmpty, subject: NonEmpty });
    return c.json(
      await team.signInLink(c.get('caller'), params.project_id, memberOf(params.issuer, params.subject)),
      201,
    );
  });

  app.post(`${PROJECT}/invites`, async (c) => {
    const { project_id } = pathParams(c, projectParams);
    return c.json(await team.invite(c.get('caller'), project_id, await jsonBody(c, InviteCreateBody)), 201);
  });

  app.get(`${PROJECT}/invites`, async (c) =>
    c.json({ invites: await team.invites(c.get('caller'), pathParams(c, projectParams).project_id) }),
  );

  app.delete(`${PROJECT}/invites/:invite_id`, async (c) => {
    const params = pathParams(c, { ...projectParams, invite_id: ResourceId });
    return c.json(await team.revokeInvite(c.get('caller'), params.project_id, params.invite_id));
  });

  app.get(`${PROJECT}/audit`, async (c) => {
    const { project_id } = pathParams(c, projectParams);
    const query = parseOrThrow(AuditQuery, c.req.query());
    return c.json({ entries: await team.audit(c.get('caller'), project_id, query.limit) });
  });

  app.get(`${PROJECT}/storage`, async (c) =>
    c.json(await team.storage(c.get('caller'), pathParams(c, projectParams).project_id)),
  );

  app.post(`${PROJECT}/canvases`, async (c) => {
    const { project_id } = pathParams(c, projectParams);
    return c.json(await team.createCanvas(c.get('caller'), project_id, await jsonBody(c, CanvasCreateBody)), 201);
  });

  app.patch(`${PROJECT}/canvases/:canvas_id`, async (c) => {
    const params = pathParams(c, { ...projectParams, canvas_id: CanvasId });
    return c.json(
      await team.changeCanvas(
        c.get('caller'),
        params.project_id,
        params.canvas_id,
        await jsonBody(c, CanvasChangeBody),
      ),
    );
  });

  app.delete(`${PROJECT}/canvases/:canvas_id`, async (c) => {
    const params = pathParams(c, { ...projectParams, canvas_id: CanvasId });
    return c.json(
      await team.deleteCanvas(
        c.get('caller'),
        params.project_id,
        params.canvas_id,
        await jsonBody(c, DeleteConfirmBody),
      ),
    );
  });

  app.post(`${PROJECT}/canvases/:canvas_id/duplicate`, async (c) => {
    const params = pathParams(c, { ...projectParams, canvas_id: CanvasId });
    return c.json(
      await team.duplicateCanvas(
        c.get('caller'),
        params.project_id,
        params.canvas_id,
        await jsonBody(c, CanvasDuplicateBody),
      ),
      201,
    );
  });

  app.post('/api/v1/projects', async (c) =>
    c.json(await team.createProject(c.get('caller'), await jsonBody(c, ProjectCreateBody)), 201),
  );

  app.patch(PROJECT, async (c) => {
    const { project_id } = pathParams(c, projectParams);
    return c.json(await team.renameProject(c.get('caller'), project_id, await jsonBody(c, ProjectChangeBody)));
  });

  app.delete(PROJECT, async (c) => {
    const { project_id } = pathParams(c, projectParams);
    return c.json(await team.deleteProject(c.get('caller'), project_id, await jsonBody(c, DeleteConfirmBody)));
  });

  registerInvitePages(app, options);
}

/** The provider people may sign in with first, when the server has one (src/backend/http/oidc-routes.ts). */
export interface InvitePageOptions {
  oidcName: string | null;
}

function invitePage(
  secret: string,
  invite: InviteRecord,
  signedInAs: Actor | null,
  pageOptions: InvitePageOptions,
  problem?: string,
) {
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

function registerInvitePages(app: Hono<BackendHttpEnv>, options: AuthRouteOptions & InvitePageOptions): void {
  const { store } = options;

  app.get('/invite', async (c) => {
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

  app.post('/invite', async (c) => {
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
        // same name (issue 31): they come back signed in, then the invitation (if they still need it) adds nothing.
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
        const { sessionSecret } = await store.sessions.signIn(link, options.times, c.req.header('user-agent') ?? null);
        setSessionCookie(c, sessionSecret, options);
      }
      return c.redirect(`/?joined=${encodeURIComponent(invite.projectId)}`, 303);
    } catch (error) {
      if (error instanceof CanvasError && error.code === 'unauthenticated') return c.html(unusable(error.message), 410);
      throw error;
    }
  });
}

export const TEAM_ROUTE_PATHS = [
  '/api/v1/projects',
  PROJECT,
  `${PROJECT}/canvases/:canvas_id/duplicate`,
  `${PROJECT}/members`,
  MEMBER,
  `${MEMBER}/sign-in-link`,
  `${PROJECT}/invites`,
  `${PROJECT}/invites/:invite_id`,
  `${PROJECT}/audit`,
  `${PROJECT}/canvases`,
  `${PROJECT}/canvases/:canvas_id`,
];
