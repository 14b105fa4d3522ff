import { chooseOption, chosenValue } from '../support/controls.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanvasLayout } from '../../src/contract/index.js';
import type { CameraMove, Framing } from '../../src/contract/shots.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { card, launchBrowser, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { boardWithStill } from '../support/demo-stage.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { expectPresentFraming, pictureLoaded } from '../support/present-move.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Drawing a camera move in the frame editor, in Chromium on both stores: on shot 3 a person draws the start framing
 * (wide) and the end framing (close) as rectangles on the frame, nudges the end with the arrow keys and grows it with
 * Shift and an arrow, picks an easing and saves. The shot's `move` read back over REST holds the drawn framings (to a
 * hundredth of the frame), in one revision; the canvas's undo (Ctrl+Z) takes it back; the shot list's Framing fields
 * show the drawn numbers; Present plays it over the still as the framing function says (as test/web/camera-moves.test.ts
 * reads it).
 */

const SHOT_MS = 1200;

/** A drag with the mouse between two points given in fractions of `surface`. */
async function drag(page: Page, surface: Locator, from: [number, number], to: [number, number]): Promise<void> {
  const box = (await surface.boundingBox())!;
  const at = ([x, y]: [number, number]) => [box.x + x * box.width, box.y + y * box.height] as const;
  await page.mouse.move(...at(from));
  await page.mouse.down();
  await page.mouse.move(...at(to), { steps: 6 });
  await page.mouse.up();
}

const expectFramingNear = (shown: Framing, expected: Framing) => {
  for (const key of ['x', 'y', 'width', 'height'] as const)
    expect(Math.abs(shown[key] - expected[key]), `${key}: ${shown[key]} against ${expected[key]}`).toBeLessThan(0.01);
};

describe.each(STORE_TARGETS)('drawing a camera move in the frame editor: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      ({ reader } = await boardWithStill(server, 'drawn-moves', (url) =>
        ['The bay', 'Mara turns', 'The lamp'].map((caption, index) => ({
          id: `s${index + 1}`,
          imageUrl: url,
          caption,
          durationMs: SHOT_MS,
        })),
      ));
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'drawn-moves', reader);
    const moveOf = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Array<{ move?: CameraMove }> }).frames[2]!
        .move;

    it('draws a push-in from wide to close on shot 3, saves it as the move the shot list shows, and Present plays it', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'drawn-moves',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await card(page, 'board').locator('[data-shot-id="s3"]').dblclick();
        const editor = page.getByRole('dialog', { name: 'Draw shot 3' });
        await editor.waitFor();
        await editor.getByRole('button', { name: 'Camera move' }).click();
        const surface = editor.getByRole('application', { name: /Camera move of shot 3/ });
        const panel = editor.getByRole('complementary', { name: 'Camera move' });

        /** Start: the wide framing; end: a close one, two steps right, one step larger. */
        const drawPush = async () => {
          await drag(page, surface, [0.05, 0.05], [0.95, 0.6]);
          await expect.poll(() => surface.getAttribute('data-selected-framing')).toBe('end');
          await drag(page, surface, [0.35, 0.3], [0.65, 0.4]);
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('Shift+ArrowDown');
          await expect.poll(() => panel.locator('[data-move-summary]').textContent()).toContain('End: left 0.37');
        };
        await drawPush();
        await expect.poll(() => surface.locator('text').allTextContents()).toEqual(['Start', 'End']);
        expect(await surface.locator('[data-move-arrow]').count()).toBeGreaterThan(0);
        await chooseOption(panel, 'Easing of the move', 'linear');
        const before = (await read()).revision;
        await panel.getByRole('button', { name: 'Save move' }).click();
        let layout = await waitFor(read, (now) => moveOf(now) !== undefined);
        expect(layout.revision).toBe(before + 1);
        let move = moveOf(layout)!;
        expectFramingNear(move.start, { x: 0.05, y: 0.05, width: 0.9, height: 0.9 });
        expectFramingNear(move.end, { x: 0.37, y: 0.3, width: 0.31, height: 0.31 });
        expect(move).toMatchObject({ easing: 'linear', kind: 'derived' });
        await expect.poll(() => panel.getByRole('status').textContent()).toBe('Saved');

        // The canvas's undo takes the move back (one revision), and the editor shows the shot without one.
        await page.getByText(`revision ${before + 1}`, { exact: true }).waitFor();
        await page.getByText('Saving…', { exact: true }).waitFor({ state: 'detached' });
        await page.keyboard.press('Control+z');
        layout = await waitFor(read, (now) => moveOf(now) === undefined);
        expect(layout.revision).toBe(before + 2);
        await expect.poll(() => surface.locator('[data-framing]').count()).toBe(0);

        await panel.getByRole('button', { name: /^Start/ }).click();
        await drawPush();
        await panel.getByRole('button', { name: 'Save move' }).click();
        layout = await waitFor(read, (now) => moveOf(now) !== undefined);
        move = moveOf(layout)!;
        expectFramingNear(move.end, { x: 0.37, y: 0.3, width: 0.31, height: 0.31 });
        await editor.getByRole('button', { name: 'Done' }).click();

        // The shot list's fields show what was drawn.
        await page.getByRole('button', { name: 'Shot list' }).click();
        const list = page.getByRole('region', { name: 'Shot list' });
        await expect
          .poll(() => chosenValue(list.getByRole('combobox', { name: 'Camera move of shot 3' })))
          .toBe('custom');
        await list.getByText('Framing', { exact: true }).click();
        const framing = list.getByRole('form', { name: 'Framing of shot 3' });
        expect(Number(await framing.getByRole('textbox', { name: 'Start size' }).inputValue())).toBeCloseTo(
          move.start.width,
          6,
        );
        expect(Number(await framing.getByRole('textbox', { name: 'End left' }).inputValue())).toBeCloseTo(
          move.end.x,
          6,
        );

        // Present plays it: the picture's transform at the start and the end is the framing function's.
        await page.getByRole('button', { name: 'Present', exact: true }).click();
        const present = page.getByRole('dialog', { name: 'Present Opening' });
        await present.getByRole('img', { name: 'Shot 1' }).waitFor();
        await page.keyboard.press('End');
        const picture = present.getByRole('img', { name: 'Shot 3' });
        await picture.waitFor();
        await pictureLoaded(picture);
        for (const fraction of [0, 1]) await expectPresentFraming(picture, move, fraction);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
