import { boardWithStill } from '../support/demo-stage.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { chooseOption, chosenValue } from '../support/controls.js';

/**
 * Frame shapes and framing guides on the page in Chromium, on both stores: the shot list sets a custom W:H (a malformed
 * one is refused naming the field, nothing saved) and the board's card draws its frames in it; Guides on the board's
 * card and in Present draw the title-safe rect 5 % in from each edge of the frame, as the frame editor, the PDF and the
 * board picture do (test/exports/pdf-guides.test.ts, test/render/board-guides.test.ts).
 */

/**
 * The title-safe rect's inset from the frame box, as fractions of its width and height. The rect's own geometry on
 * screen (its corners through the SVG's screen transform, which includes the canvas's zoom), not its box with the
 * stroke's width around it.
 */
async function insetOf(frame: Locator, guide: Locator) {
  const outer = (await frame.boundingBox())!;
  const inner = await guide.evaluate((element) => {
    // The page's DOM types, spelled out: the tests compile without the DOM library.
    type Point = { x: number; y: number; matrixTransform(matrix: unknown): Point };
    const rect = element as unknown as {
      getBBox(): { x: number; y: number; width: number; height: number };
      getScreenCTM(): unknown;
    };
    const Dom = (globalThis as unknown as { DOMPoint: new (x: number, y: number) => Point }).DOMPoint;
    const box = rect.getBBox();
    const matrix = rect.getScreenCTM();
    const topLeft = new Dom(box.x, box.y).matrixTransform(matrix);
    const bottomRight = new Dom(box.x + box.width, box.y + box.height).matrixTransform(matrix);
    return { x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
  });
  return {
    left: (inner.x - outer.x) / outer.width,
    top: (inner.y - outer.y) / outer.height,
    right: (outer.x + outer.width - inner.x - inner.width) / outer.width,
    bottom: (outer.y + outer.height - inner.y - inner.height) / outer.height,
    pixels: { left: inner.x - outer.x, width: outer.width },
  };
}

function expectFivePercent(inset: Awaited<ReturnType<typeof insetOf>>) {
  for (const side of ['left', 'top', 'right', 'bottom'] as const) expect(inset[side]).toBeCloseTo(0.05, 2);
  // To the pixel: the rect's left edge is 5 % of the frame's width in.
  expect(Math.abs(inset.pixels.left - inset.pixels.width * 0.05)).toBeLessThan(1);
}

describe.each(STORE_TARGETS)('frame shapes and guides: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      ({ reader } = await boardWithStill(server, 'guides', (url) => [
        { id: 's1', imageUrl: url, caption: 'The bay' },
        { id: 's2', imageUrl: null, caption: 'Mara turns' },
      ]));
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'guides', reader);
    const aspectRatioOf = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { aspectRatio?: string }).aspectRatio;
    const frameRatio = async (page: Page) => {
      const box = (await card(page, 'board').locator('[data-shot-id="s2"] .frame-empty').boundingBox())!;
      return box.width / box.height;
    };

    it('sets a custom W:H in the shot list, refusing a malformed one, and the card draws it', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'guides',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.getByRole('button', { name: 'Shot list' }).click();
        const list = page.getByRole('region', { name: 'Shot list' });
        const start = (await read()).revision;

        await chooseOption(list, 'Frame', 'Custom…');
        const custom = list.getByRole('form', { name: 'Custom frame shape' });
        await custom.getByRole('textbox', { name: 'W:H' }).fill('wide');
        await custom.getByRole('button', { name: 'Set' }).click();
        const alert = custom.getByRole('alert');
        await expect.poll(() => alert.textContent()).toMatch(/^Frame shape \(W:H\): "wide" .*Nothing was saved\.$/);
        expect(await custom.getByRole('textbox', { name: 'W:H' }).getAttribute('aria-invalid')).toBe('true');
        expect((await read()).revision).toBe(start);

        await custom.getByRole('textbox', { name: 'W:H' }).fill('1.43:1');
        await custom.getByRole('button', { name: 'Set' }).click();
        let layout = await waitFor(read, (now) => now.revision === start + 1);
        expect(aspectRatioOf(layout)).toBe('1.43:1');
        await expect.poll(() => frameRatio(page)).toBeCloseTo(1.43, 1);
        // The custom shape shows as the board's in the picker, and another one replaces it.
        expect(await chosenValue(list.getByRole('combobox', { name: 'Frame' }))).toBe('1.43:1');
        await chooseOption(list, 'Frame', 'Custom…');
        await custom.getByRole('textbox', { name: 'W:H' }).fill('5:4');
        await custom.getByRole('textbox', { name: 'W:H' }).press('Enter');
        layout = await waitFor(read, (now) => now.revision === start + 2);
        expect(aspectRatioOf(layout)).toBe('5:4');
        await expect.poll(() => frameRatio(page)).toBeCloseTo(1.25, 1);
        // Back to a preset.
        await chooseOption(list, 'Frame', '16:9');
        layout = await waitFor(read, (now) => now.revision === start + 3);
        expect(aspectRatioOf(layout)).toBe('16:9');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it("draws title safe 5 % in from the frame's edge on the board's card and in Present", async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'guides',
      });
      try {
        await page.locator('.feed-live').waitFor();
        const board = card(page, 'board');
        await board.locator('[data-shot-id="s1"] img').first().waitFor();
        expect(await board.locator('[data-guide]').count()).toBe(0);

        // Guides on: the person's choice (title and action safe until changed), and the centre cross added.
        await board.getByText('Guides', { exact: true }).click();
        await board.getByRole('checkbox', { name: 'Show guides' }).check();
        await board.getByRole('checkbox', { name: 'Centre cross' }).check();
        for (const shot of ['s1', 's2']) {
          const frame = board.locator(`[data-shot-id="${shot}"] .frame-picture`);
          const title = frame.locator('[data-guide="titleSafe"]');
          await title.waitFor();
          expectFivePercent(await insetOf(frame, title));
          expect(await frame.locator('[data-guide="actionSafe"]').count()).toBe(1);
          expect(await frame.locator('[data-guide="centre"]').count()).toBe(2);
        }
        await screenshot(page, 'guides-card');

        // Present keeps the choice, and draws title safe 5 % in from the picture's frame (here 16:9).
        await page.getByRole('button', { name: 'Present', exact: true }).click();
        const present = page.getByRole('dialog', { name: 'Present Opening' });
        const picture = present.getByRole('img', { name: 'Shot 1' });
        await picture.waitFor();
        const title = present.locator('[data-guide="titleSafe"]');
        await title.waitFor();
        expectFivePercent(await insetOf(picture, title));
        const shown = (await picture.boundingBox())!;
        expect(shown.width / shown.height).toBeCloseTo(16 / 9, 1);
        await screenshot(page, 'guides-present');
        // The next shot has no picture: its placeholder is the frame, with the guides on it.
        await page.keyboard.press('ArrowRight');
        const placeholder = present.locator('.present-placeholder');
        await placeholder.waitFor();
        expectFivePercent(await insetOf(placeholder, present.locator('[data-guide="titleSafe"]')));
        // Off in Present: off on the card too (one choice of this person's).
        await present.getByText('Guides', { exact: false }).first().click();
        await present.getByRole('checkbox', { name: 'Show guides' }).uncheck();
        await expect.poll(() => present.locator('[data-guide]').count()).toBe(0);
        await page.keyboard.press('Escape');
        await present.waitFor({ state: 'detached' });
        await expect.poll(() => board.locator('[data-guide]').count()).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
