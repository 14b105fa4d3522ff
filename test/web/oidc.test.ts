import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, screenshot } from '../support/browser.js';
import { reserveOidcStandIn, type OidcStandIn } from '../support/oidc-standin.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * OpenID Connect sign-in, in Chromium on both stores, against a local provider (`oidc-provider`, a real implementation
 * with its development login page): a member whose (issuer, subject) an owner added signs in with the provider, lands
 * on their canvases, and the provider's answer is checked (state, PKCE, nonce) by `openid-client`.
 */

describe.each(STORE_TARGETS)('OpenID Connect sign-in: $name', (target) => {
  describe.skipIf(!target.available)('with a local provider', () => {
    let provider: OidcStandIn;
    let server: TestServer;
    let browser: Browser;

    beforeAll(async () => {
      provider = await reserveOidcStandIn();
      server = await startTestServer(target, {
        seedDemo: true,
        oidcIssuer: provider.issuer,
        oidcClientId: provider.clientId,
        oidcClientSecret: provider.clientSecret,
        oidcName: 'Test IdP',
      });
      provider.serve(`${server.url}/auth/oidc/callback`);
      await server.store.projects.addMember('demo', { issuer: provider.issuer, subject: 'ana-sso' }, 'editor');
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await provider?.close();
    });

    it('a member signs in with the provider from the landing page and sees their canvases', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(server.url);
        await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
        // The provider's own development login page, then its consent.
        await page.locator('input[name="login"]').fill('ana-sso');
        await page.locator('input[name="password"]').fill('any password');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByText('Signed in as ana-sso').waitFor();
        await page.getByRole('link', { name: 'main', exact: true }).waitFor();
        expect(new URL(page.url()).origin).toBe(server.url);
        await screenshot(page, `oidc-signed-in-${target.name}`);
        const me = (await page.evaluate(async () => (await fetch('/api/v1/me')).json())) as {
          person: { issuer: string; subject: string };
          projects: Array<{ role: string }>;
        };
        expect(me.person).toEqual({ issuer: provider.issuer, subject: 'ana-sso' });
        expect(me.projects[0]?.role).toBe('editor');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('refuses a callback this browser did not begin, and a forged state', async () => {
      const bare = await fetch(`${server.url}/auth/oidc/callback?code=x&state=y`, { redirect: 'manual' });
      expect(bare.status).toBe(400);
      expect(await bare.text()).toContain('was not started in this browser');
      // The page that says so is read as a person would: axe finds nothing serious on it.
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const shown = await page.goto(`${server.url}/auth/oidc/callback?code=x&state=y`);
        expect(shown?.status()).toBe(400);
        await page.getByText('was not started in this browser').waitFor();
        expect(await seriousFindings(page)).toEqual([]);
      } finally {
        await context.close();
      }

      // Begun here, but answered with another state: openid-client refuses it, and no session is opened.
      const start = await fetch(`${server.url}/auth/oidc/start`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      expect(new URL(start.headers.get('location')!).searchParams.get('code_challenge_method')).toBe('S256');
      const flowCookie = start.headers.get('set-cookie')!.split(';', 1)[0]!;
      const forged = await fetch(
        `${server.url}/auth/oidc/callback?code=x&state=forged&iss=${encodeURIComponent(provider.issuer)}`,
        { redirect: 'manual', headers: { cookie: flowCookie } },
      );
      expect(forged.status).toBe(401);
      expect(forged.headers.get('set-cookie') ?? '').not.toContain('canvas_mcp_session=');
    });

    it('says how people sign in here', async () => {
      const methods = await (await fetch(`${server.url}/api/v1/auth/methods`)).json();
      expect(methods).toEqual({ links: true, oidc: { name: 'Test IdP', start: '/auth/oidc/start' }, email: false });
    });
  });
});
