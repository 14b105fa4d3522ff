import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { IDP } from './world.js';

/**
 * A team run from the browser, over real HTTP on SQLite and PostgreSQL: owners invite by link (once, expiring, naming
 * who invited whom), change roles and remove members, create and lock canvases; a project always keeps an owner;
 * viewers see and change nothing; every change is in the audit log.
 */

const PROJECT = '/api/v1/projects/p';

function errorOf(body: unknown) {
  return (body as { error: { code: string; message: string } }).error;
}

describe.each(STORE_TARGETS)('a project team: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      for (const [subject, role] of [
        ['olga', 'owner'],
        ['vic', 'viewer'],
      ] as const) {
        await projects.addMember('p', { issuer: IDP, subject }, role);
        const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
        cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      }
    });
    afterAll(async () => server?.close());

    const as = (who: string, request: ApiRequest = {}): ApiRequest => ({
      ...request,
      headers: { cookie: cookies[who]!, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });
    const memberPath = (issuer: string, subject: string) =>
      `${PROJECT}/members/${encodeURIComponent(issuer)}/${encodeURIComponent(subject)}`;

    /** Opens an invitation link as a browser with no session and joins with a name; answers the new cookie. */
    async function acceptAsNewcomer(
      url: string,
      name: string,
    ): Promise<{ status: number; cookie: string; page: string }> {
      const page = await fetch(url);
      const text = await page.text();
      if (page.status !== 200) return { status: page.status, cookie: '', page: text };
      const token = new URL(url).searchParams.get('token')!;
      const joined = await fetch(`${server.url}/invite`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, name }),
      });
      return { status: joined.status, cookie: joined.headers.get('set-cookie')?.split(';', 1)[0] ?? '', page: text };
    }

    it('without an OpenID Connect provider, people sign in with links only, and the sign-in routes say so', async () => {
      expect((await api(server.url, '/api/v1/auth/methods')).body).toEqual({ links: true, oidc: null, email: false });
      const start = await fetch(`${server.url}/auth/oidc/start`, { redirect: 'manual' });
      expect(start.status).toBe(404);
      expect(await start.text()).toContain('links only');
    });

    it('an owner invites by link; the newcomer joins with a name, is signed in, and edits; the link works once', async () => {
      const issued = await api(
        server.url,
        `${PROJECT}/invites`,
        as('olga', { method: 'POST', body: { role: 'editor' } }),
      );
      expect(issued.status).toBe(201);
      const invite = issued.body as { url: string; invite_id: string; invited_by: { subject: string }; role: string };
      expect(invite).toMatchObject({ role: 'editor', invited_by: { issuer: IDP, subject: 'olga' } });
      expect(invite.url).toMatch(new RegExp(`^${server.url}/invite\\?token=inv_`));
      // Only the hash is kept.
      const stored = JSON.stringify(await server.store.driver.all('SELECT * FROM project_invites'));
      expect(stored).not.toContain(new URL(invite.url).searchParams.get('token')!);

      const joined = await acceptAsNewcomer(invite.url, 'Ana Lima');
      expect(joined.page).toContain('<strong>olga</strong> invited you to project <strong>p</strong> as');
      expect(joined.status).toBe(303);
      cookies.ana = joined.cookie;
      const me = await api(server.url, '/api/v1/me', as('ana'));
      expect(me.body).toMatchObject({
        person: { subject: 'Ana Lima' },
        projects: [{ project_id: 'p', role: 'editor' }],
      });
      const write = await api(
        server.url,
        '/api/v2/projects/p/canvases/c/changes',
        as('ana', {
          method: 'POST',
          body: {
            base_revision: 0,
            operations: [
              {
                op: 'create_node',
                node: { id: 'by-ana', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'hi' } },
              },
            ],
          },
        }),
      );
      expect(write.status, JSON.stringify(write.body)).toBe(201);

      const again = await acceptAsNewcomer(invite.url, 'Mallory');
      expect(again.status).toBe(410);
      expect(again.page).toContain('already been used');
      const invites = await api(server.url, `${PROJECT}/invites`, as('olga'));
      expect((invites.body as { invites: unknown[] }).invites[0]).toMatchObject({
        invite_id: invite.invite_id,
        accepted_by: { subject: 'Ana Lima' },
      });
    });

    it('refuses a join posted from another site, and an invitation that expired or was withdrawn', async () => {
      const issued = (
        await api(server.url, `${PROJECT}/invites`, as('olga', { method: 'POST', body: { role: 'viewer' } }))
      ).body as { url: string; invite_id: string };
      const token = new URL(issued.url).searchParams.get('token')!;
      const foreign = await fetch(`${server.url}/invite`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, name: 'x' }),
      });
      expect(foreign.status).toBe(403);
      const withdrawn = await api(
        server.url,
        `${PROJECT}/invites/${issued.invite_id}`,
        as('olga', { method: 'DELETE' }),
      );
      expect(withdrawn.body).toMatchObject({ revoked_at: expect.any(String) });
      expect((await acceptAsNewcomer(issued.url, 'Late')).status).toBe(410);
    });

    it('viewers see the members but cannot invite, change roles, create or lock canvases, or read the audit log', async () => {
      const members = await api(server.url, `${PROJECT}/members`, as('vic'));
      expect(members.status).toBe(200);
      expect(
        (members.body as { members: Array<{ subject: string; role: string }> }).members.map((m) => [m.subject, m.role]),
      ).toEqual(
        expect.arrayContaining([
          ['olga', 'owner'],
          ['vic', 'viewer'],
          ['Ana Lima', 'editor'],
        ]),
      );
      for (const [method, path, body] of [
        ['POST', `${PROJECT}/invites`, { role: 'owner' }],
        ['PATCH', memberPath(IDP, 'vic'), { role: 'owner' }],
        ['POST', `${PROJECT}/canvases`, { canvas_id: 'mine' }],
        ['PATCH', `${PROJECT}/canvases/c`, { locked: true }],
        ['GET', `${PROJECT}/audit`, undefined],
      ] as const) {
        const refused = await api(server.url, path, as('vic', { method, ...(body ? { body } : {}) }));
        expect(refused.status, `${method} ${path}`).toBe(403);
      }
    });

    it('the last owner can neither leave nor be demoted; with a second owner they can', async () => {
      const demote = await api(
        server.url,
        memberPath(IDP, 'olga'),
        as('olga', { method: 'PATCH', body: { role: 'editor' } }),
      );
      expect(demote.status).toBe(403);
      expect(errorOf(demote.body).message).toMatch(/last owner/);
      expect((await api(server.url, memberPath(IDP, 'olga'), as('olga', { method: 'DELETE' }))).status).toBe(403);
      const promoted = await api(
        server.url,
        memberPath(IDP, 'vic'),
        as('olga', { method: 'PATCH', body: { role: 'owner' } }),
      );
      expect(promoted.body).toMatchObject({ subject: 'vic', role: 'owner' });
      expect(
        (await api(server.url, memberPath(IDP, 'vic'), as('olga', { method: 'PATCH', body: { role: 'viewer' } })))
          .status,
      ).toBe(200);
    });

    it('a removed member loses the project at once: their next request and their open feed', async () => {
      const ana = (await api(server.url, '/api/v1/me', as('ana'))).body as {
        person: { issuer: string; subject: string };
      };
      const feed = await fetch(`${server.url}/api/v2/projects/p/canvases/c/events?after=0`, {
        headers: { cookie: cookies.ana!, accept: 'text/event-stream' },
      });
      expect(feed.status).toBe(200);
      const removed = await api(
        server.url,
        memberPath(ana.person.issuer, ana.person.subject),
        as('olga', { method: 'DELETE' }),
      );
      expect(removed.status).toBe(204);
      expect(
        (
          await api(
            server.url,
            '/api/v2/projects/p/canvases/c/snapshot',
            as('ana', { headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } }),
          )
        ).status,
      ).toBe(403);
      // The feed ends by itself (its access is checked again while it runs).
      const text = await feed.text();
      expect(text).toContain('access_revoked');
    });

    it('a member may leave; an owner creates and locks canvases; every change is in the audit log', async () => {
      const left = await api(server.url, memberPath(IDP, 'vic'), as('vic', { method: 'DELETE' }));
      expect(left.status).toBe(204);
      const created = await api(
        server.url,
        `${PROJECT}/canvases`,
        as('olga', { method: 'POST', body: { canvas_id: 'storyboard-2' } }),
      );
      expect(created.status).toBe(201);
      const duplicate = await api(
        server.url,
        `${PROJECT}/canvases`,
        as('olga', { method: 'POST', body: { canvas_id: 'storyboard-2' } }),
      );
      expect(duplicate.status).toBe(409);
      const locked = await api(
        server.url,
        `${PROJECT}/canvases/storyboard-2`,
        as('olga', { method: 'PATCH', body: { locked: true } }),
      );
      expect(locked.body).toEqual({ canvas_id: 'storyboard-2', title: null, locked: true });
      const audit = await api(server.url, `${PROJECT}/audit`, as('olga'));
      const actions = (audit.body as { entries: Array<{ action: string; actor: { subject: string } }> }).entries.map(
        (entry) => `${entry.actor.subject}:${entry.action}`,
      );
      expect(actions).toEqual(
        expect.arrayContaining([
          'olga:invite.created',
          'Ana Lima:member.joined',
          'olga:invite.revoked',
          'olga:member.role_changed',
          'olga:member.removed',
          'vic:member.left',
          'olga:canvas.created',
          'olga:canvas.locked',
        ]),
      );
      expect(actions[0]).toBe('olga:canvas.locked');
    });

    it('an owner renames, duplicates and deletes a canvas (typed confirmation; its runs cancelled; gone for every reader)', async () => {
      const renamed = await api(
        server.url,
        `${PROJECT}/canvases/c`,
        as('olga', { method: 'PATCH', body: { title: 'Act I storyboard' } }),
      );
      expect(renamed.body).toEqual({ canvas_id: 'c', title: 'Act I storyboard', locked: false });
      const me = (await api(server.url, '/api/v1/me', as('olga'))).body as {
        projects: Array<{ canvases: Array<{ canvas_id: string; title: string | null }> }>;
      };
      expect(me.projects[0]!.canvases.find((canvas) => canvas.canvas_id === 'c')!.title).toBe('Act I storyboard');

      const copy = await api(
        server.url,
        `${PROJECT}/canvases/c/duplicate`,
        as('olga', { method: 'POST', body: { canvas_id: 'c-copy' } }),
      );
      expect(copy.status, JSON.stringify(copy.body)).toBe(201);
      const snapshot = async (canvas: string) =>
        api(
          server.url,
          `/api/v2/projects/p/canvases/${canvas}/snapshot`,
          as('olga', { headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } }),
        );
      const original = (await snapshot('c')).body as { layout: { nodes: Array<{ id: string }> } };
      const copied = (await snapshot('c-copy')).body as { layout: { nodes: Array<{ id: string }>; revision: number } };
      expect(copied.layout.nodes.map((node) => node.id)).toEqual(original.layout.nodes.map((node) => node.id));

      // A queued run on the canvas is cancelled by its deletion.
      const frame = {
        id: 'frame',
        type: 'imageGenNode',
        position: { x: 0, y: 300 },
        data: {
          displayName: 'Frame',
          imageUrl: null,
          aspectRatio: '16:9',
          prompt: 'a lighthouse',
          size: '1K',
          count: 1,
        },
      };
      const added = await api(
        server.url,
        '/api/v2/projects/p/canvases/c-copy/changes',
        as('olga', {
          method: 'POST',
          body: { base_revision: copied.layout.revision, operations: [{ op: 'create_node', node: frame }] },
        }),
      );
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      const run = await api(
        server.url,
        '/api/v2/projects/p/canvases/c-copy/nodes/frame/runs',
        as('olga', { method: 'POST', headers: { 'idempotency-key': 'k-1' } }),
      );
      expect(run.status, JSON.stringify(run.body)).toBe(202);
      const runId = (run.body as { run_id: string }).run_id;
      const wrong = await api(
        server.url,
        `${PROJECT}/canvases/c-copy`,
        as('olga', { method: 'DELETE', body: { confirm: 'c' } }),
      );
      expect(wrong.status).toBe(400);
      expect(errorOf(wrong.body).message).toContain('type its id (c-copy)');
      const deleted = await api(
        server.url,
        `${PROJECT}/canvases/c-copy`,
        as('olga', { method: 'DELETE', body: { confirm: 'c-copy' } }),
      );
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ deleted: 'c-copy', cancelled_run_ids: [runId] });
      const cancelled = await server.store.runs.getRun('p', 'c-copy', runId);
      expect(cancelled?.status).toBe('cancelled');
      expect((await snapshot('c-copy')).status).toBe(404);
      const again = await api(
        server.url,
        `${PROJECT}/canvases`,
        as('olga', { method: 'POST', body: { canvas_id: 'c-copy' } }),
      );
      expect(again.status).toBe(409);
    });

    it('an owner creates a project in their workspace, renames it, and deletes it with its canvases', async () => {
      const created = await api(
        server.url,
        '/api/v1/projects',
        as('olga', { method: 'POST', body: { project_id: 'p2', title: 'Season two' } }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const me = async () =>
        (
          (await api(server.url, '/api/v1/me', as('olga'))).body as {
            projects: Array<{ project_id: string; title: string | null; role: string }>;
          }
        ).projects;
      expect((await me()).find((project) => project.project_id === 'p2')).toMatchObject({
        title: 'Season two',
        role: 'owner',
      });
      await api(
        server.url,
        '/api/v1/projects/p2/canvases',
        as('olga', { method: 'POST', body: { canvas_id: 'pilot' } }),
      );
      expect(
        (await api(server.url, '/api/v1/projects/p2', as('olga', { method: 'PATCH', body: { title: 'Season 2' } })))
          .status,
      ).toBe(200);
      expect(
        (await api(server.url, '/api/v1/projects/p2', as('olga', { method: 'DELETE', body: { confirm: 'nope' } })))
          .status,
      ).toBe(400);
      expect(
        (await api(server.url, '/api/v1/projects/p2', as('olga', { method: 'DELETE', body: { confirm: 'p2' } })))
          .status,
      ).toBe(200);
      expect((await me()).some((project) => project.project_id === 'p2')).toBe(false);
      const pilot = await api(
        server.url,
        '/api/v2/projects/p2/canvases/pilot/snapshot',
        as('olga', { headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } }),
      );
      expect(pilot.status).toBe(404);
      // Someone who owns nothing cannot create projects.
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'nobody' },
        { expiresInMs: 60_000 },
      );
      cookies.nobody = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      expect(
        (await api(server.url, '/api/v1/projects', as('nobody', { method: 'POST', body: { project_id: 'p3' } })))
          .status,
      ).toBe(403);
    });

    it("a person sees their own sessions (which browser, this one marked) and signs one out; another's is not theirs to end", async () => {
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'olga' },
        { expiresInMs: 60_000 },
      );
      const phone = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          origin: server.url,
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
        },
        body: new URLSearchParams({ token: link }),
      });
      cookies.olgaPhone = phone.headers.get('set-cookie')!.split(';', 1)[0]!;
      const listed = await api(server.url, '/api/v1/me/sessions', as('olga'));
      const sessions = (
        listed.body as { sessions: Array<{ session_id: string; device: string | null; current: boolean }> }
      ).sessions;
      expect(sessions).toHaveLength(2);
      const other = sessions.find((session) => !session.current)!;
      expect(other.device).toContain('iPhone');
      expect(sessions.filter((session) => session.current)).toHaveLength(1);

      const vicSessions = await server.store.sessions.sessionsOf(
        { issuer: IDP, subject: 'vic' },
        { idleMs: 3_600_000, absoluteMs: 86_400_000, rememberMs: 86_400_000 },
      );
      expect(vicSessions.length).toBeGreaterThan(0);
      expect(
        (await api(server.url, `/api/v1/me/sessions/${vicSessions[0]!.id}`, as('olga', { method: 'DELETE' }))).status,
      ).toBe(404);
      expect(
        (await api(server.url, `/api/v1/me/sessions/${other.session_id}`, as('olga', { method: 'DELETE' }))).status,
      ).toBe(204);
      expect((await api(server.url, '/api/v1/me', as('olgaPhone'))).status).toBe(401);
      expect((await api(server.url, '/api/v1/me', as('olga'))).status).toBe(200);
    });
  });
});
