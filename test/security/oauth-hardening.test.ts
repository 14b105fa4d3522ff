import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOAuthRecords } from '../../src/oauth/sql-adapter.js';
import { REGISTRATION_BYTES, REGISTRATIONS_PER_HOUR } from '../../src/oauth/request-guards.js';
import { Browser } from '../support/oauth-client.js';
import { signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * The authorization server's anonymous routes have budgets (requests per address, registrations per hour, body sizes)
 * and unused registrations expire; signing out of canvas-mcp ends the authorization server's session, and an
 * authorization request from a browser where another person (or nobody) is signed in shows the sign-in and consent
 * again; a refresh token used twice within its grace answers the same pair.
 */

const IDP = 'https://idp.example';
const redirectUri = 'http://127.0.0.1:53691/callback';

describe.each(STORE_TARGETS)('the authorization server, hardened: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const cookies: Record<string, string> = {};
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    let clientId = '';

    beforeAll(async () => {
      server = await startTestServer(target, {});
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      for (const subject of ['ana', 'bea', 'cleo']) {
        await projects.addMember('p', { issuer: IDP, subject }, 'editor');
        const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
        cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      }
      clientId = await register('Hardening client');
    });
    afterAll(async () => server?.close());

    async function register(name: string, extra: Record<string, unknown> = {}): Promise<string> {
      const registered = await fetch(`${server.url}/oauth/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: name,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          scope: 'canvas:read canvas:write',
          ...extra,
        }),
      });
      expect(registered.status).toBe(201);
      return ((await registered.json()) as { client_id: string }).client_id;
    }

    const authorizeUrl = () =>
      `${server.url}/oauth/auth?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'canvas:read canvas:write',
        state: 'st',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: server.server.mcpUrl,
      })}`;
    const token = (params: Record<string, string>) =>
      fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: clientId, ...params }).toString(),
      });
    async function tokens(browser: Browser): Promise<{ access_token: string; refresh_token: string }> {
      const { callback } = await browser.authorize(new URL(authorizeUrl()), redirectUri, server.url, {
        decision: 'allow',
        canvas: 'p/c',
        access: 'edit',
      });
      const answer = await token({
        grant_type: 'authorization_code',
        code: callback.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { access_token: string; refresh_token: string };
    }

    it('a refresh token used again within its grace answers the same rotated pair, however often and at once', async () => {
      const first = await tokens(new Browser(cookies.ana));
      const [one, two] = await Promise.all([
        token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }),
        token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }),
      ]);
      expect([one.status, two.status]).toEqual([200, 200]);
      const a = (await one.json()) as { access_token: string; refresh_token: string };
      const b = (await two.json()) as { access_token: string; refresh_token: string };
      expect(b).toEqual(a);
      const third = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect(await third.json()).toEqual(a);
      // The one pair works; no second branch exists.
      const next = await token({ grant_type: 'refresh_token', refresh_token: a.refresh_token });
      expect(next.status).toBe(200);
      // The kept answer is sealed: the database holds no usable token.
      const kept = JSON.stringify(
        await server.store.driver.all("SELECT * FROM oauth_records WHERE model = 'RefreshReply'"),
      );
      expect(kept).not.toContain(a.access_token);
      expect(kept).not.toContain(a.refresh_token);
    });

    it('signing out of canvas-mcp ends the authorization session: the next request asks who is there', async () => {
      const browser = new Browser(cookies.bea);
      await tokens(browser);
      // Signed in, the same browser is authorized again without a page (the grant stands).
      const silent = await browser.follow(authorizeUrl(), redirectUri);
      expect('callback' in silent && silent.callback.get('code')).toBeTruthy();
      const signOut = await browser.request(`${server.url}/auth/logout`, {
        method: 'POST',
        headers: { origin: server.url, 'x-requested-by': 'canvas-mcp' },
      });
      expect(signOut.status).toBe(204);
      const after = await browser.follow(authorizeUrl(), redirectUri);
      expect('page' in after).toBe(true);
      expect(await (after as { page: Response }).page.text()).toContain('Sign in to connect');
    });

    it("another person signed in to the same browser is asked to consent, never handed the first one's grant", async () => {
      const browser = new Browser(cookies.ana);
      await tokens(browser);
      // Ana's canvas-mcp session is replaced by Cleo's; the authorization server's session is still Ana's.
      const [name, value] = cookies.cleo!.split('=') as [string, string];
      browser.jar.set(name, value);
      const shared = await browser.follow(authorizeUrl(), redirectUri);
      expect('page' in shared).toBe(true);
      const page = await (shared as { page: Response }).page.text();
      expect(page).toContain('Signed in as <strong>cleo</strong>');
    });

    it('refuses registration metadata over its size limit, and registrations past the hourly budget of an address', async () => {
      const big = await fetch(`${server.url}/oauth/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'x'.repeat(REGISTRATION_BYTES), redirect_uris: [redirectUri] }),
      });
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: string }).error).toBe('invalid_request');
      let refused: Response | null = null;
      for (let index = 0; index <= REGISTRATIONS_PER_HOUR && !refused; index += 1) {
        const answer = await fetch(`${server.url}/oauth/reg`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_name: `spam ${index}`,
            redirect_uris: [redirectUri],
            token_endpoint_auth_method: 'none',
          }),
        });
        if (answer.status === 429) refused = answer;
        else expect(answer.status).toBe(201);
      }
      expect(refused?.status).toBe(429);
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('deletes a registered client no grant has used for the idle time, and keeps one in use', async () => {
      const clients = async () =>
        (await server.store.driver.all("SELECT id FROM oauth_records WHERE model = 'Client'")).map((row) => row.id);
      const before = await clients();
      expect(before).toContain(clientId);
      const monthLater = Date.now() + 31 * 86_400_000;
      // The client in use: its grant was used now (as if a month on, still used).
      await server.store.driver.run('UPDATE oauth_grants SET last_used_at = ? WHERE client_id = ?', [
        monthLater,
        clientId,
      ]);
      await sweepOAuthRecords(server.store.driver, monthLater, 30 * 86_400_000);
      const after = await clients();
      expect(after).toContain(clientId);
      expect(after.length).toBeLessThan(before.length);
    });
  });
});
