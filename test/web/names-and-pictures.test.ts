import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_OWNER } from '../../src/server/demo-seed.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Names and pictures, not ids (docs/ui.md, "Names"), in Chromium: the first owner, known only as `demo-owner`, is asked
 * for a name on arrival, gives one and a picture of themselves; the home page, the team page and a teammate's canvas
 * (who is here) then show that name with that picture.
 */

const TEAMMATE = { issuer: 'https://idp.example', subject: 'mate-7f3a' };

describe.each(STORE_TARGETS)('names and pictures in the browser: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.addMember(DEMO.project, TEAMMATE, 'editor');
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('the first owner names themselves and adds a picture; home, team page and a teammate see both', async () => {
      const owner = await signIn(browser, server, DEMO_OWNER, null);
      const mate = await signIn(browser, server, TEAMMATE, { projectId: DEMO.project, canvasId: DEMO.canvas });
      try {
        const page = owner.page;
        page.setDefaultTimeout(10_000);
        await page.getByText('What should your team call you?').waitFor();
        await page.getByLabel('What should your team call you?').fill('Dana Reyes');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.getByText('Signed in as Dana Reyes').waitFor();

        const portrait = await sharp({
          create: { width: 900, height: 1200, channels: 3, background: { r: 30, g: 110, b: 190 } },
        })
          .jpeg()
          .toBuffer();
        await page
          .getByRole('group', { name: 'Your picture' })
          .locator('input[type=file]')
          .setInputFiles({ name: 'dana.jpg', mimeType: 'image/jpeg', buffer: portrait });
        const avatar = page.locator('.who img.avatar');
        await avatar.waitFor();
        const src = await avatar.getAttribute('src');
        expect(src).toMatch(/^\/api\/v1\/pictures\/pic_/);
        // The picture loads, as the square the server made.
        expect(
          await avatar.evaluate((element) => {
            const image = element as unknown as { decode(): Promise<void>; naturalWidth: number };
            return image.decode().then(() => image.naturalWidth);
          }),
        ).toBe(256);
        await page.getByRole('button', { name: 'Remove picture' }).waitFor();
        expect(await seriousFindings(page)).toEqual([]);
        await screenshot(page, 'home-name-and-picture');

        // The team page names the owner and shows the picture.
        await page.goto(`${server.url}/p/${DEMO.project}/team`);
        const row = page.locator('tr[data-member="demo-owner"]');
        await row.getByText('Dana Reyes').waitFor();
        expect(await row.locator('img.avatar').getAttribute('src')).toBe(src);

        // A teammate on the canvas sees Dana with the picture, once Dana is there too.
        await mate.page.goto(`${server.url}/p/${DEMO.project}/c/${DEMO.canvas}`);
        await page.goto(`${server.url}/p/${DEMO.project}/c/${DEMO.canvas}`);
        const chip = mate.page.locator('.who-is-here .presence-chip', { hasText: 'Dana Reyes' });
        await chip.waitFor({ timeout: 15_000 });
        expect(await chip.locator('img.avatar').getAttribute('src')).toBe(src);
        expect(await mate.page.locator('.who-is-here').textContent()).not.toContain('demo-owner');
        expect(owner.errors).toEqual([]);
        expect(mate.errors).toEqual([]);
      } finally {
        await owner.context.close();
        await mate.context.close();
      }
    });
  });
});
