import { boardWithStill } from '../support/demo-stage.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanvasLayout } from '../../src/contract/index.js';
import type { CameraMove } from '../../src/contract/shots.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { expectPresentFraming, pictureLoaded } from '../support/present-move.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { chooseOption } from '../support/controls.js';

/**
 * Camera moves on the page in Chromium, on both stores: the shot list sets a move from a preset ("wide → close"), its
 * easing, and its framings as numbers (a framing outside the contract refused naming the field, nothing saved);
 * Present plays it over the still as a CSS transform whose values at the start and near the end are the framing
 * function's (src/shared/camera-move.ts), ending on the end framing.
 */

const SHOT_MS = 1200;

describe.each(STORE_TARGETS)('camera moves on the page: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      ({ reader } = await boardWithStill(server, 'moves', (url) => [
        { id: 's1', imageUrl: url, caption: 'The bay', durationMs: SHOT_MS },
      ]));
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'moves', reader);
    const moveOf = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Array<{ move?: CameraMove }> }).frames[0]!
        .move;

    it('sets a push in the shot list and plays it in Present from the start framing to the end', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'moves',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.getByRole('button', { name: 'Shot list' }).click();
        const list = page.getByRole('region', { name: 'Shot list' });

        await chooseOption(list, 'Camera move of shot 1', 'wide → close');
        let layout = await waitFor(read, (now) => moveOf(now) !== undefined);
        expect(moveOf(layout)).toEqual({
          start: { x: 0, y: 0, width: 1, height: 1 },
          end: { x: 0.25, y: 0.25, width: 0.5, height: 0.5 },
          easing: 'ease-in-out',
          kind: 'derived',
        });
        await chooseOption(list, 'Easing of shot 1', 'linear');
        await chooseOption(list, 'Move kind of shot 1', 'push');
        layout = await waitFor(read, (now) => moveOf(now)?.easing === 'linear' && moveOf(now)?.kind === 'push');

        // Numbers: a framing leaving the picture is refused naming the field, and nothing is saved.
        await list.getByText('Framing', { exact: true }).click();
        const framing = list.getByRole('form', { name: 'Framing of shot 1' });
        await framing.getByRole('textbox', { name: 'End left' }).fill('0.8');
        await framing.getByRole('button', { name: 'Set' }).click();
        await expect.poll(() => framing.getByRole('alert').textContent()).toContain('move.end.width');
        const revision = (await read()).revision;
        await framing.getByRole('textbox', { name: 'End left' }).fill('0.3');
        await framing.getByRole('textbox', { name: 'End top' }).fill('0.2');
        await framing.getByRole('button', { name: 'Set' }).click();
        layout = await waitFor(read, (now) => moveOf(now)?.end.x === 0.3);
        expect(layout.revision).toBe(revision + 1);
        const move = moveOf(layout)!;
        expect(move.end).toEqual({ x: 0.3, y: 0.2, width: 0.5, height: 0.5 });
        await screenshot(page, 'camera-move-shot-list');

        await page.getByRole('button', { name: 'Present', exact: true }).click();
        const present = page.getByRole('dialog', { name: 'Present Opening' });
        const picture = present.getByRole('img', { name: 'Shot 1' });
        await picture.waitFor();
        await pictureLoaded(picture);
        await expectPresentFraming(picture, move, 0);
        await expectPresentFraming(picture, move, 0.95);
        // Played out, it rests on the end framing.
        await expectPresentFraming(picture, move, 1);
        await screenshot(page, 'camera-move-present');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
