import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { boardWithStill } from '../support/demo-stage.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * History a person can read (docs/ui.md, "History"), in Chromium: three fields of shot 2 filled in the shot list are
 * three revisions, shown as one entry "edited shot 2: lens, dialogue, look" whose revisions are listed and revertible.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('History groups a person’s edits of one shot', () => {
  let server: TestServer;
  let browser: Browser;
  let reader: string;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    // No picture on either shot: the board's only changes are the three fields typed.
    ({ reader } = await boardWithStill(server, 'history', () => [
      { id: 's1', number: '1', imageUrl: null },
      { id: 's2', number: '2', imageUrl: null },
    ]));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows three field edits of shot 2 as one entry naming the fields, each revision kept and revertible', async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'history' });
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('button', { name: 'Shot list' }).click();
      const list = page.getByRole('region', { name: 'Shot list' });
      const start = (await readLayout(server, 'demo', 'history', reader)).revision;
      for (const [name, value] of [
        ['Lens of shot 2', '50'],
        ['Dialogue of shot 2', 'MARA: Again.'],
        ['Look of shot 2', 'Dusk'],
      ] as const) {
        const before = (await readLayout(server, 'demo', 'history', reader)).revision;
        const field = list.getByRole('textbox', { name });
        await field.fill(value);
        await field.press('Tab');
        await waitFor(
          () => readLayout(server, 'demo', 'history', reader),
          (layout) => layout.revision === before + 1,
        );
      }
      await page.getByRole('tab', { name: 'History' }).click();
      const group = page.locator('.history-group');
      await group.waitFor();
      // History re-reads as revisions arrive: it settles on one entry of the three.
      await expect.poll(() => group.getAttribute('data-revisions')).toBe('3');
      expect(await group.locator('.history-what').textContent()).toMatch(/edited shot 2: look, dialogue, lens$/);
      expect(await group.locator('.history-revision').first().textContent()).toBe(`r${start + 1}–r${start + 3}`);
      await group.getByText('3 revisions').click();
      expect(await group.getByRole('button', { name: /^Revert to r/ }).count()).toBe(2);
      expect(await seriousFindings(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
