import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * An invitation never does more than its maker may still do. Only owners invite; an invitation whose maker is no longer
 * an owner (or no longer a member) no longer works, and removing or demoting an owner withdraws their open invitations
 * in the same transaction. A security review's reproduction: owner A invites with role owner; owner B removes A; the
 * link used to make an owner, who could then demote B.
 */

const IDP = 'https://idp.example';
const PROJECT = '/api/v1/projects/p';

describe.each(STORE_TARGETS)('invitations outlive nobody: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 });
      await server.store.projects.createWorkspace('w');
      await server.store.projects.createProject('p', 'w');
      await server.store.projects.createCanvas('p', 'c', false);
      for (const subject of ['alma', 'bruno', 'carla']) {
        await server.store.projects.addMember('p', { issuer: IDP, subject }, 'owner');
        const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
        cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      }
    });
    afterAll(async () => server?.close());

    const as = (who: string, request: ApiRequest = {}): ApiRequest => ({
      ...request,
      headers: { cookie: cookies[who]!, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });
    const memberPath = (subject: string) => `${PROJECT}/members/${encodeURIComponent(IDP)}/${subject}`;

    async function invite(by: string, role: 'owner' | 'editor' | 'viewer') {
      const issued = await api(server.url, `${PROJECT}/invites`, as(by, { method: 'POST', body: { role } }));
      expect(issued.status).toBe(201);
      return issued.body as { url: string; invite_id: string };
    }

    /** Joins through the link as a new person; answers the status and the page. */
    async function join(url: string, name: string): Promise<{ status: number; page: string; cookie: string }> {
      const page = await fetch(url);
      const text = await page.text();
      if (page.status !== 200) return { status: page.status, page: text, cookie: '' };
      const joined = await fetch(`${server.url}/invite`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: new URL(url).searchParams.get('token')!, name }),
      });
      return { status: joined.status, page: text, cookie: joined.headers.get('set-cookie')?.split(';', 1)[0] ?? '' };
    }

    it("a removed owner's invitation to be an owner is withdrawn with them, and its link makes nobody an owner", async () => {
      const link = await invite('alma', 'owner');
      const removed = await api(server.url, memberPath('alma'), as('bruno', { method: 'DELETE' }));
      expect(removed.status).toBe(204);

      const listed = (await api(server.url, `${PROJECT}/invites`, as('bruno'))).body as {
        invites: Array<{ invite_id: string; revoked_at: string | null }>;
      };
      expect(listed.invites.find((each) => each.invite_id === link.invite_id)?.revoked_at).toEqual(expect.any(String));
      const attempt = await join(link.url, 'Mallory');
      expect(attempt.status).toBe(410);
      expect(attempt.page).toContain('withdrawn');
      const members = (await api(server.url, `${PROJECT}/members`, as('bruno'))).body as {
        members: Array<{ subject: string; role: string }>;
      };
      expect(members.members.map((member) => member.subject)).not.toContain('Mallory');
      expect(members.members.find((member) => member.subject === 'bruno')?.role).toBe('owner');
    });

    it('demoting an owner withdraws their open invitations in the same change, and says so in the audit log', async () => {
      const link = await invite('carla', 'editor');
      const demoted = await api(
        server.url,
        memberPath('carla'),
        as('bruno', { method: 'PATCH', body: { role: 'editor' } }),
      );
      expect(demoted.status).toBe(200);
      expect((await join(link.url, 'Late Joiner')).status).toBe(410);
      const audit = (await api(server.url, `${PROJECT}/audit`, as('bruno'))).body as {
        entries: Array<{ action: string; target: string; details: Record<string, unknown> }>;
      };
      expect(audit.entries).toContainEqual(
        expect.objectContaining({
          action: 'invite.revoked',
          target: link.invite_id,
          details: expect.objectContaining({ reason: 'maker_no_longer_owner' }),
        }),
      );
    });

    it('an invitation whose maker stopped being an owner some other way (the admin command line) no longer works', async () => {
      await api(server.url, memberPath('carla'), as('bruno', { method: 'PATCH', body: { role: 'owner' } }));
      const link = await invite('carla', 'owner');
      // The administrator's removal does not pass through the team's rules: acceptance checks the maker itself.
      await server.store.driver.run('DELETE FROM project_members WHERE project_id = ? AND subject = ?', ['p', 'carla']);
      const attempt = await join(link.url, 'Sneaky');
      expect(attempt.status).toBe(410);
      expect(attempt.page).toContain('who is no longer a member of the project');
    });
  });
});
