import type { Browser, Page } from 'playwright-core';
import { pointers, type Touch } from '../support/pointers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type Drawing } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * A tablet in Chromium with touch emulation (`hasTouch`, `isMobile`), on both stores: the canvas page and the frame
 * editor at 768 × 1024 and 1024 × 768 fit the screen (no sideways scrolling, the frame as large as the width allows,
 * the tools above it); a long press of a finger on a frame of the board's card opens its editor; a finger draws while
 * no pen has been used, then a pen draws and a resting palm does not; two fingers pinch (the stage's scale grows) and
 * pan (it moves) and draw nothing. Every pointer is a synthetic PointerEvent with its pointerType, id and pressure, as
 * a tablet's browser sends them.
 */

const TABLET = { hasTouch: true, isMobile: true };
const PORTRAIT = { width: 768, height: 1024 };
const LANDSCAPE = { width: 1024, height: 768 };

/** One stroke across the frame at height `y`, by one pointer. */
const stroke = (pointerType: 'pen' | 'touch', pointerId: number, y: number): Touch[] => [
  { type: 'pointerdown', pointerId, pointerType, x: 0.2, y, pressure: 0.3 },
  ...Array.from({ length: 12 }, (_, step): Touch => ({
    type: 'pointermove',
    pointerId,
    pointerType,
    x: 0.2 + (0.6 * (step + 1)) / 12,
    y,
    pressure: 0.3 + (0.5 * (step + 1)) / 12,
  })),
  { type: 'pointerup', pointerId, pointerType, x: 0.8, y },
];

/** The stage's transform as the browser computed it: its scale and its translation. */
async function stageTransform(page: Page) {
  const matrix = await page
    .locator('.frame-editor-stage')
    .evaluate(
      (stage) =>
        (globalThis as unknown as { getComputedStyle(element: unknown): { transform: string } }).getComputedStyle(stage)
          .transform,
    );
  const values = /matrix\(([^)]+)\)/.exec(matrix)?.[1]?.split(',').map(Number) ?? [1, 0, 0, 1, 0, 0];
  return { scale: values[0]!, x: values[4]!, y: values[5]! };
}

/** Nothing of the page is wider than the screen (a tablet does not scroll sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

describe.each(STORE_TARGETS)('a tablet: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium with touch', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.createCanvas('demo', 'tablet', false);
      await server.store.writes.createNode(
        { projectId: 'demo', canvasId: 'tablet', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: {
            title: 'Harbour',
            aspectRatio: '16:9',
            frames: ['s1', 's2', 's3'].map((id, index) => ({ id, imageUrl: null, caption: `Shot ${index + 1}` })),
          },
        }),
      );
      reader = await projectToken(server.store, 'demo', 'viewer');
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const drawing = async (shot: string) =>
      (
        await api(server.url, `/api/v2/projects/demo/canvases/tablet/nodes/board/shots/${shot}/drawing`, {
          token: reader,
        })
      ).body as Drawing;
    const strokes = (shown: Drawing) => shown.layers.flatMap((layer) => layer.strokes);

    it('at 768 × 1024: a long press opens the editor; a finger draws, then a pen, not a palm; two fingers pinch and pan', async () => {
      const { context, page, errors } = await signIn(
        browser,
        server,
        DEMO_OWNER,
        { projectId: 'demo', canvasId: 'tablet' },
        PORTRAIT,
        TABLET,
      );
      try {
        await page.locator('.feed-live').waitFor();
        expect(
          await page.evaluate(
            () => (globalThis as unknown as { navigator: { maxTouchPoints: number } }).navigator.maxTouchPoints,
          ),
        ).toBeGreaterThan(0);
        await card(page, 'board').locator('[data-shot-id="s2"]').waitFor();
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await screenshot(page, 'canvas-tablet');

        // A finger held still on shot 2's frame opens its editor (no double-click on a tablet).
        await pointers(page, '.react-flow__node[data-id="board"] [data-shot-id="s2"]', [
          { type: 'pointerdown', pointerId: 11, pointerType: 'touch', x: 0.5, y: 0.4 },
        ]);
        const editor = page.getByRole('dialog', { name: 'Draw shot 2' });
        await editor.waitFor();
        await pointers(page, '.react-flow__node[data-id="board"] [data-shot-id="s2"]', [
          { type: 'pointerup', pointerId: 11, pointerType: 'touch', x: 0.5, y: 0.4 },
        ]);
        await page.locator('.frame-editor[data-drawing-version]').waitFor();

        // The frame takes the width (the side panels went above and below it), nothing wider than the screen.
        const stage = (await editor.locator('.frame-editor-stage').boundingBox())!;
        const tools = (await editor.getByRole('complementary', { name: 'Tools' }).boundingBox())!;
        expect(stage.width).toBeGreaterThan(PORTRAIT.width * 0.85);
        expect(stage.x).toBeGreaterThanOrEqual(0);
        expect(stage.x + stage.width).toBeLessThanOrEqual(PORTRAIT.width);
        expect(tools.y + tools.height).toBeLessThanOrEqual(stage.y);
        expect(await overflow(page)).toBeLessThanOrEqual(0);

        // No pen yet: a finger draws.
        await pointers(page, '.frame-editor-live', stroke('touch', 21, 0.3));
        await waitFor(
          () => drawing('s2'),
          (shown) => shown.version === 1,
        );
        // The pen draws; after it, a resting palm draws nothing, and the pen still does.
        await pointers(page, '.frame-editor-live', stroke('pen', 2, 0.5));
        await waitFor(
          () => drawing('s2'),
          (shown) => shown.version === 2,
        );
        await pointers(page, '.frame-editor-live', stroke('touch', 23, 0.7));
        await pointers(page, '.frame-editor-live', stroke('pen', 2, 0.6));
        let shown = await waitFor(
          () => drawing('s2'),
          (now) => now.version === 3,
        );
        expect(strokes(shown)).toHaveLength(3);
        const pressures = strokes(shown)[1]!.points.map((point) => point[2]);
        expect(pressures[0]).toBeLessThan(0.35);
        expect(pressures.at(-1)).toBeGreaterThan(0.75);
        // The palm's stroke would be the only one at y = 0.7.
        expect(strokes(shown).some((each) => each.points.some((point) => Math.abs(point[1] - 0.7) < 0.01))).toBe(false);

        // Two fingers apart: the stage zooms in (twice the spread, twice the scale).
        const before = await stageTransform(page);
        expect(before.scale).toBeCloseTo(1, 5);
        const surface = (await page.locator('.frame-editor-live').boundingBox())!;
        await pointers(
          page,
          '.frame-editor-live',
          [
            { type: 'pointerdown', pointerId: 31, pointerType: 'touch', x: 0.4, y: 0.5 },
            { type: 'pointerdown', pointerId: 32, pointerType: 'touch', x: 0.6, y: 0.5 },
            { type: 'pointermove', pointerId: 31, pointerType: 'touch', x: 0.3, y: 0.5 },
            { type: 'pointermove', pointerId: 32, pointerType: 'touch', x: 0.7, y: 0.5 },
          ],
          surface,
        );
        const zoomed = await waitFor(
          () => stageTransform(page),
          (now) => now.scale > 1.5,
        );
        expect(zoomed.scale).toBeCloseTo(2, 1);
        // Both fingers move down together: the stage pans with them, at the same scale.
        await pointers(
          page,
          '.frame-editor-live',
          [
            { type: 'pointermove', pointerId: 31, pointerType: 'touch', x: 0.3, y: 0.6 },
            { type: 'pointermove', pointerId: 32, pointerType: 'touch', x: 0.7, y: 0.6 },
            { type: 'pointerup', pointerId: 31, pointerType: 'touch', x: 0.3, y: 0.6 },
            { type: 'pointerup', pointerId: 32, pointerType: 'touch', x: 0.7, y: 0.6 },
          ],
          surface,
        );
        const panned = await waitFor(
          () => stageTransform(page),
          (now) => now.y > zoomed.y + 10,
        );
        expect(panned.scale).toBeCloseTo(zoomed.scale, 5);
        expect(Math.abs(panned.x - zoomed.x)).toBeLessThan(1);
        // The pinch drew nothing: the next pen stroke is the fourth.
        await pointers(page, '.frame-editor-live', stroke('pen', 2, 0.45));
        shown = await waitFor(
          () => drawing('s2'),
          (now) => now.version === 4,
        );
        expect(strokes(shown)).toHaveLength(4);
        const shot = await screenshot(page, 'drawing-tablet');
        expect(shot.inkRatio).toBeGreaterThan(0.2);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('at 1024 × 768: the canvas page and the editor fit the screen, the frame as large as it allows', async () => {
      const { context, page, errors } = await signIn(
        browser,
        server,
        DEMO_OWNER,
        { projectId: 'demo', canvasId: 'tablet' },
        LANDSCAPE,
        TABLET,
      );
      try {
        await page.locator('.feed-live').waitFor();
        await card(page, 'board').locator('[data-shot-id="s1"]').waitFor();
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await pointers(page, '.react-flow__node[data-id="board"] [data-shot-id="s1"]', [
          { type: 'pointerdown', pointerId: 41, pointerType: 'touch', x: 0.5, y: 0.5 },
        ]);
        const editor = page.getByRole('dialog', { name: 'Draw shot 1' });
        await editor.waitFor();
        await page.locator('.frame-editor[data-drawing-version]').waitFor();
        const stage = (await editor.locator('.frame-editor-stage').boundingBox())!;
        expect(stage.width / stage.height).toBeCloseTo(16 / 9, 1);
        expect(stage.y + stage.height).toBeLessThanOrEqual(LANDSCAPE.height);
        expect(stage.x + stage.width).toBeLessThanOrEqual(LANDSCAPE.width);
        // Landscape leaves the height to share: the frame still takes most of the width or the height left to it.
        expect(Math.max(stage.width / LANDSCAPE.width, stage.height / (LANDSCAPE.height * 0.5))).toBeGreaterThan(0.8);
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await pointers(page, '.frame-editor-live', stroke('touch', 43, 0.5));
        await waitFor(
          () => drawing('s1'),
          (shown) => shown.version === 1,
        );
        await screenshot(page, 'drawing-tablet-landscape');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
