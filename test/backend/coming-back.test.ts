import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * People come back on their own: an owner makes a teammate a one-time sign-in link from the Team page (copyable, in the
 * audit log); a person can keep a device signed in for longer; an invitation joined under the name of someone already
 * in the project adds no second person; owners see every pending invitation with its link again.
 */

const IDP = 'https://idp.example';
const PROJECT = '/api/v1/projects/p';

describe.each(STORE_TARGETS)('coming back without the operator: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const cookies: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000, sessionRememberDays: 30 });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      for (const [subject, role] of [
        ['olga', 'owner'],
        ['ana', 'editor'],
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
    const linkFor = (subject: string, who = 'olga') =>
      api(
        server.url,
        `${PROJECT}/members/${encodeURIComponent(IDP)}/${subject}/sign-in-link`,
        as(who, { method: 'POST' }),
      );

    it('an owner makes a teammate whose session ended a sign-in link: it signs them back in as themselves, once', async () => {
      await server.store.driver.run('UPDATE sessions SET ended_at = ? WHERE subject = ?', [Date.now(), 'ana']);
      expect((await api(server.url, '/api/v1/me', as('ana'))).status).toBe(401);
      const made = await linkFor('ana');
      expect(made.status).toBe(201);
      const { url, person } = made.body as { url: string; person: { subject: string } };
      expect(person.subject).toBe('ana');
      expect(url).toMatch(new RegExp(`^${server.url}/auth/login\\?token=login_`));
      const back = await signInWithLink(url);
      cookies.ana = back.cookie;
      expect((await api(server.url, '/api/v1/me', as('ana'))).body).toMatchObject({ person: { subject: 'ana' } });
      expect((await signInWithLink(url)).cookie).toBe('');
      const audit = (await api(server.url, `${PROJECT}/audit`, as('olga'))).body as {
        entries: Array<{ action: string }>;
      };
      expect(audit.entries.map((entry) => entry.action)).toContain('member.sign_in_link');
      // Only owners make them, and only for members.
      expect((await linkFor('olga', 'ana')).status).toBe(403);
      expect((await linkFor('stranger')).status).toBe(404);
    });

    it('a device its person chose to remember stays signed in past the idle time; another does not', async () => {
      const remembered = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'ana' },
        { expiresInMs: 60_000 },
      );
      const page = await fetch(`${server.url}/auth/login?token=${remembered}`);
      expect(await page.text()).toContain('Keep me signed in on this device for');
      const signedIn = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: remembered, remember: '1' }),
      });
      const setCookie = signedIn.headers.get('set-cookie')!;
      // The server renews a remembered session as it is used (30 days from each use, a year at most): the cookie is
      // kept for the year, and the server says when the session has ended.
      expect(setCookie).toMatch(new RegExp(`Max-Age=${365 * 86_400}`));
      const kept = setCookie.split(';', 1)[0]!;
      // Both of ana's sessions were last used 13 hours ago (the idle limit is 12 hours).
      await server.store.driver.run('UPDATE sessions SET last_seen_at = ? WHERE subject = ?', [
        Date.now() - 13 * 3_600_000,
        'ana',
      ]);
      const read = (cookie: string) =>
        api(server.url, '/api/v1/me', { headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' } });
      expect((await read(kept)).status).toBe(200);
      expect((await read(cookies.ana!)).status).toBe(401);
      // The remembered cookie answers only to the browser it was opened in: copied to another, it is refused.
      const elsewhere = await api(server.url, '/api/v1/me', {
        headers: { cookie: kept, origin: server.url, 'x-requested-by': 'canvas-mcp', 'user-agent': 'curl/8.5.0' },
      });
      expect(elsewhere.status).toBe(401);
      expect((await read(kept)).status).toBe(200);
    });

    it('an invitation offers to keep the new teammate signed in on that device, and signing out ends it', async () => {
      const issued = (
        await api(server.url, `${PROJECT}/invites`, as('olga', { method: 'POST', body: { role: 'viewer' } }))
      ).body as { url: string };
      const token = new URL(issued.url).searchParams.get('token')!;
      const page = await (await fetch(issued.url)).text();
      expect(page).toContain('Keep me signed in on this device for 30 days');
      const joined = await fetch(`${server.url}/invite`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, name: 'Noor', remember: '1' }),
      });
      expect(joined.status).toBe(303);
      const setCookie = joined.headers.get('set-cookie')!;
      expect(setCookie).toMatch(new RegExp(`Max-Age=${365 * 86_400}`));
      const cookie = setCookie.split(';', 1)[0]!;
      const headers = { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' };
      const me = (await api(server.url, '/api/v1/me', { headers })).body as {
        person: { issuer: string; subject: string };
      };
      const [session] = await server.store.sessions.sessionsOf(me.person, {
        idleMs: 12 * 3_600_000,
        absoluteMs: 7 * 86_400_000,
        rememberMs: 30 * 86_400_000,
      });
      expect(session?.remembered).toBe(true);
      // Past the 12 idle hours it is still signed in; signing out ends it.
      await server.store.driver.run('UPDATE sessions SET last_seen_at = ? WHERE id = ?', [
        Date.now() - 13 * 3_600_000,
        session!.id,
      ]);
      expect((await api(server.url, '/api/v1/me', { headers })).status).toBe(200);
      expect((await api(server.url, '/auth/logout', { method: 'POST', headers })).status).toBeLessThan(400);
      expect((await api(server.url, '/api/v1/me', { headers })).status).toBe(401);
    });

    it('removed from the last project they were in, a person is no longer remembered on any device', async () => {
      const issued = (
        await api(server.url, `${PROJECT}/invites`, as('olga', { method: 'POST', body: { role: 'viewer' } }))
      ).body as { url: string };
      const joined = await fetch(`${server.url}/invite`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: new URL(issued.url).searchParams.get('token')!,
          name: 'Lee',
          remember: '1',
        }),
      });
      const cookie = joined.headers.get('set-cookie')!.split(';', 1)[0]!;
      const headers = { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' };
      const me = (await api(server.url, '/api/v1/me', { headers })).body as {
        person: { issuer: string; subject: string };
      };
      const removed = await api(
        server.url,
        `${PROJECT}/members/${encodeURIComponent(me.person.issuer)}/${encodeURIComponent(me.person.subject)}`,
        as('olga', { method: 'DELETE' }),
      );
      expect(removed.status).toBeLessThan(300);
      expect((await api(server.url, '/api/v1/me', { headers })).status).toBe(401);
      // A member removed from one project who is still in another keeps their sessions: olga still reads.
      expect((await api(server.url, '/api/v1/me', as('olga'))).status).toBe(200);
    });

    it('an invitation joined under the name of a member adds no second person, and says what to do', async () => {
      const issued = (
        await api(server.url, `${PROJECT}/invites`, as('olga', { method: 'POST', body: { role: 'editor' } }))
      ).body as { url: string };
      const token = new URL(issued.url).searchParams.get('token')!;
      const joined = await fetch(`${server.url}/invite`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, name: 'Ana' }),
      });
      expect(joined.status).toBe(409);
      expect(await joined.text()).toContain('Someone named ana is already a member of this project');
      const members = (await api(server.url, `${PROJECT}/members`, as('olga'))).body as {
        members: Array<{ subject: string }>;
      };
      expect(members.members.filter((member) => member.subject.toLowerCase() === 'ana')).toHaveLength(1);
    });

    it('owners see every pending invitation with its link again, and none of a used or withdrawn one', async () => {
      const make = async (role: string) =>
        (await api(server.url, `${PROJECT}/invites`, as('olga', { method: 'POST', body: { role } }))).body as {
          url: string;
          invite_id: string;
        };
      const pending = await make('viewer');
      const withdrawn = await make('editor');
      await api(server.url, `${PROJECT}/invites/${withdrawn.invite_id}`, as('olga', { method: 'DELETE' }));
      const listed = (await api(server.url, `${PROJECT}/invites`, as('olga'))).body as {
        invites: Array<{ invite_id: string; url?: string; role: string; invited_by: { subject: string } }>;
      };
      expect(listed.invites.find((invite) => invite.invite_id === pending.invite_id)).toMatchObject({
        url: pending.url,
        role: 'viewer',
        invited_by: { subject: 'olga' },
      });
      expect(listed.invites.find((invite) => invite.invite_id === withdrawn.invite_id)?.url).toBeUndefined();
      // The stored row holds the link sealed, never as it is.
      const stored = JSON.stringify(await server.store.driver.all('SELECT * FROM project_invites'));
      expect(stored).not.toContain(new URL(pending.url).searchParams.get('token')!);
    });
  });
});

describe.each(STORE_TARGETS)('a remembered device across a server restart: $name', (target) => {
  it.skipIf(!target.available)(
    'stays signed in past the idle time after the server restarts, where a plain session of the same age does not',
    async () => {
      const database = await target.createDatabase();
      const settings = { rateLimitPerMinute: 1_000_000, sessionRememberDays: 30 };
      const person = { issuer: IDP, subject: 'ana' };
      let first: TestServer | undefined = await startTestServer(target, settings, { database });
      let second: TestServer | undefined;
      try {
        const { projects, sessions } = first.store;
        await projects.createWorkspace('w');
        await projects.createProject('p', 'w');
        await projects.addMember('p', person, 'editor');
        const remembered = await sessions.createLoginLink(person, { expiresInMs: 60_000 });
        const signedIn = await fetch(`${first.url}/auth/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: first.url, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: remembered, remember: '1' }),
        });
        const kept = signedIn.headers.get('set-cookie')!.split(';', 1)[0]!;
        const plain = (
          await signInWithLink(
            `${first.url}/auth/login?token=${await sessions.createLoginLink(person, { expiresInMs: 60_000 })}`,
          )
        ).cookie;
        expect(plain).not.toBe('');
        await first.close();
        first = undefined;

        second = await startTestServer(target, settings, { database });
        // Both sessions were last used 13 hours ago, while the server was down (the idle limit is 12 hours).
        await second.store.driver.run('UPDATE sessions SET last_seen_at = ? WHERE subject = ?', [
          Date.now() - 13 * 3_600_000,
          'ana',
        ]);
        const read = (cookie: string) =>
          api(second!.url, '/api/v1/me', { headers: { cookie, origin: second!.url, 'x-requested-by': 'canvas-mcp' } });
        const me = await read(kept);
        expect(me.status).toBe(200);
        expect(me.body).toMatchObject({ person: { subject: 'ana' } });
        expect((await read(plain)).status).toBe(401);
        // The use renewed it: the session's last use is now, so it slides on from this restart.
        const [session] = await second.store.sessions.sessionsOf(person, {
          idleMs: 12 * 3_600_000,
          absoluteMs: 7 * 86_400_000,
          rememberMs: 30 * 86_400_000,
        });
        expect(session?.remembered).toBe(true);
        expect(session!.lastSeenAt).toBeGreaterThan(Date.now() - 3_600_000);
      } finally {
        await first?.close();
        await second?.close();
        await database.cleanup();
      }
    },
  );
});
