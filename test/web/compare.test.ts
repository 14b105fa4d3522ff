import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CanvasNode, ExportView, UploadReceipt } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * Compare in review (docs/review.md, "Compare"), in Chromium on both stores: a shot's picture against an earlier one
 * side by side, as a wipe and as onion; two cuts of the animatic played together, a seek on one moving the other.
 */

const CANVAS = '/api/v2/projects/demo/canvases/compare';

describe.each(STORE_TARGETS)('compare: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.createCanvas('demo', 'compare', false);
      const token = await projectToken(server.store, 'demo', 'editor');
      // Two takes that look apart: a warm one now, a cold one before.
      const picture = async (name: string, background: string) => {
        const bytes = await sharp({ create: { width: 320, height: 180, channels: 3, background } })
          .png()
          .toBuffer();
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
        const answer = await fetch(`${server.url}${CANVAS}/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        return UploadReceipt.parse(await answer.json()).uploads[0]!.url;
      };
      const [now, before] = [await picture('take-2.png', '#e8590c'), await picture('take-1.png', '#1c7ed6')];
      const revision = (await server.store.layout.readCanvas('demo', 'compare'))!.revision;
      await server.store.writes.createNode(
        {
          projectId: 'demo',
          canvasId: 'compare',
          baseRevision: revision,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: {
            title: 'Harbour',
            frames: [
              { id: 's1', number: '1', imageUrl: now, earlierPictures: [before], durationMs: 1000 },
              { id: 's2', number: '2', imageUrl: null, durationMs: 1000 },
            ],
          },
        }),
      );
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('compares a shot’s picture with an earlier one: side by side, a wipe the reviewer moves, and onion', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'compare',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.getByRole('button', { name: 'Shot list' }).click();
        await page.getByText('Earlier pictures (1)').click();
        await page.getByRole('button', { name: "Compare earlier picture 1 with shot 1's picture" }).click();
        const dialog = page.getByRole('dialog', { name: 'Compare: Shot 1 now and Earlier picture 1' });
        await dialog.waitFor();
        expect(await dialog.locator('img[data-side]').count()).toBe(2);
        await screenshot(page, 'compare-side-by-side');
        expect(await seriousFindings(page)).toEqual([]);

        await dialog.getByRole('radio', { name: 'Wipe' }).check();
        const over = dialog.locator('img[data-side="b"]');
        expect(await over.evaluate((element) => (element as { style: { clipPath: string } }).style.clipPath)).toBe(
          'inset(0px 0px 0px 50%)',
        );
        await dialog.getByRole('slider', { name: 'Wipe' }).fill('30');
        expect(await over.evaluate((element) => (element as { style: { clipPath: string } }).style.clipPath)).toBe(
          'inset(0px 0px 0px 30%)',
        );
        await screenshot(page, 'compare-wipe');
        await dialog.getByRole('radio', { name: 'Onion' }).check();
        expect(await over.evaluate((element) => (element as { style: { opacity: string } }).style.opacity)).toBe('0.5');
        await dialog.getByRole('button', { name: 'Close' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('plays two cuts of the animatic together: play, seek and pause on one are done on the other', async () => {
      const asOwner = await signedInPerson(server, DEMO_OWNER);
      for (const push of [false, true]) {
        const started = await api(
          server.url,
          `${CANVAS}/exports`,
          asOwner({ method: 'POST', body: { kind: 'animatic', node_id: 'board', options: { push_in: push } } }),
        );
        expect(started.status, JSON.stringify(started.body)).toBe(201);
        const { export_id: exportId } = ExportView.parse(started.body);
        await waitFor(
          async () => ExportView.parse((await api(server.url, `${CANVAS}/exports/${exportId}`, asOwner())).body),
          (view) => view.status === 'succeeded',
          60_000,
        );
      }
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'compare',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.getByRole('tab', { name: 'Exports' }).click();
        const ticks = page.getByRole('checkbox', { name: 'Compare this cut' });
        await ticks.nth(1).waitFor();
        await ticks.nth(0).check();
        await ticks.nth(1).check();
        await page.getByRole('button', { name: 'Compare the two animatics' }).click();
        const dialog = page.getByRole('dialog');
        const [a, b] = [dialog.locator('video[data-side="a"]'), dialog.locator('video[data-side="b"]')];
        const state = (film: typeof a) =>
          film.evaluate((element) => {
            const video = element as { currentTime: number; paused: boolean; readyState: number };
            return { time: video.currentTime, paused: video.paused, ready: video.readyState };
          });
        await waitFor(
          () => state(b),
          (now) => now.ready >= 1,
        );
        await a.evaluate((element) => {
          (element as { currentTime: number }).currentTime = 1.25;
        });
        await waitFor(
          () => state(b),
          (now) => Math.abs(now.time - 1.25) < 0.05,
        );
        await a.evaluate((element) => (element as { play(): Promise<void> }).play());
        await waitFor(
          () => state(b),
          (now) => !now.paused,
        );
        await a.evaluate((element) => (element as { pause(): void }).pause());
        await waitFor(
          () => state(b),
          (now) => now.paused,
        );
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
