import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { boardWithStill } from '../support/demo-stage.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * "Continue from previous" in the shot list (docs/storyboards.md, "Continuity") in Chromium, on both stores: the
 * Continue button of shot 2 gives it the cast, location, lens and look of shot 1 in one revision by the person who pressed
 * it (the rest of the shot as it was), the first shot's button is disabled, and axe finds nothing serious.
 */

type Frame = Record<string, unknown> & { id: string };

describe.each(STORE_TARGETS)('continue from previous in the shot list: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      ({ reader } = await boardWithStill(server, 'continuity', (url) => [
        { id: 's1', number: '1', imageUrl: url, cast: ['Mara', 'Tom'], location: 'PIER', lensMm: 35, look: 'Dusk' },
        { id: 's2', number: '2', imageUrl: null, cast: ['Ode'], lensMm: 85, shotSize: 'CU', caption: 'Her face' },
      ]));
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'continuity', reader);
    const framesOf = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Frame[] }).frames;

    it('gives shot 2 the cast, location, lens and look of shot 1 in one revision, by the person who pressed Continue', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'continuity',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.getByRole('button', { name: 'Shot list' }).click();
        const list = page.getByRole('region', { name: 'Shot list' });
        await list.locator('.shot-table tbody tr').nth(1).waitFor();
        expect(await list.getByRole('button', { name: 'Continue shot 1 from the shot before' }).isDisabled()).toBe(
          true,
        );
        const start = (await read()).revision;

        await list.getByRole('button', { name: 'Continue shot 2 from the shot before' }).click();
        const layout = await waitFor(read, (now) => now.revision === start + 1);
        const [s1, s2] = framesOf(layout);
        expect(s2).toEqual({
          id: 's2',
          number: '2',
          imageUrl: null,
          cast: ['Mara', 'Tom'],
          location: 'PIER',
          lensMm: 35,
          look: 'Dusk',
          shotSize: 'CU',
          caption: 'Her face',
        });
        expect(s1).toMatchObject({ cast: ['Mara', 'Tom'], location: 'PIER', lensMm: 35 });
        // The list shows it at once, and the server's history names who did it.
        await expect.poll(() => list.getByRole('textbox', { name: 'Lens of shot 2' }).inputValue()).toBe('35');
        expect(await list.getByRole('textbox', { name: 'Location of shot 2' }).inputValue()).toBe('PIER');
        expect(await list.getByRole('textbox', { name: 'Look of shot 2' }).inputValue()).toBe('Dusk');
        const history = (
          await api(server.url, '/api/v2/projects/demo/canvases/continuity/history?limit=1', { token: reader })
        ).body as { revisions: Array<{ revision: number; author: { kind: string; subject?: string } }> };
        expect(history.revisions[0]).toMatchObject({
          revision: start + 1,
          author: { kind: 'person', subject: DEMO_OWNER.subject },
        });
        expect(await seriousFindings(page)).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
