import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { horizontalFovDeg } from '../../src/shared/lens.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';
import { chooseOption } from '../support/controls.js';

/**
 * Floor plans on the page in Chromium, on both stores: a person adds a plan from the palette and a camera to it, sets
 * the camera to 35 mm on Super 35 and links it to shot 5 of the board; the camera's wedge in the SVG opens at the
 * angle src/shared/lens.ts computes, shot 5's lensMm becomes 35 in the same revision, the label names shot 5, and
 * dragging the camera moves it on the plan.
 */

type Camera = { id: string; x: number; y: number; sensor: string; lensMm: number; shot?: unknown };

/** The angle between the wedge's two rays, in degrees, from its path (`M cx cy L x1 y1 A r r 0 f 1 x2 y2 Z`). */
async function wedgeAngle(wedge: Locator): Promise<number> {
  const d = (await wedge.getAttribute('d'))!;
  const numbers = d.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)!.map(Number);
  const [cx, cy, x1, y1] = numbers as [number, number, number, number];
  const [x2, y2] = numbers.slice(-2) as [number, number];
  const a = Math.atan2(y1 - cy, x1 - cx);
  const b = Math.atan2(y2 - cy, x2 - cx);
  let angle = Math.abs(b - a) * (180 / Math.PI);
  if (angle > 180) angle = 360 - angle;
  return angle;
}

describe.each(STORE_TARGETS)('floor plans on the page: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.createCanvas('demo', 'plans', false);
      await server.store.writes.createNode(
        { projectId: 'demo', canvasId: 'plans', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: {
            title: 'Scene 2',
            frames: ['s1', 's2', 's3', 's4', 's5', 's6'].map((id, index) => ({
              id,
              imageUrl: null,
              number: String(index + 1),
              lensMm: 24,
            })),
          },
        }),
      );
      reader = await projectToken(server.store, 'demo', 'viewer');
      browser = await launchBrowser();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'plans', reader);
    const planOf = (layout: CanvasLayout) => layout.nodes.find((node) => node.type === 'floorPlanNode');
    const camerasOf = (layout: CanvasLayout) => (planOf(layout)?.data as { cameras?: Camera[] }).cameras ?? [];
    const shot5Lens = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Array<{ id: string; lensMm?: number }> })
        .frames[4]!.lensMm;

    it('adds a plan and camera A, sets 35 mm on Super 35, links shot 5: the wedge matches the lens, shot 5 takes 35 mm', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'plans',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.locator('.palette').getByRole('button', { name: 'Floor plan' }).click();
        let layout = await waitFor(read, (now) => planOf(now) !== undefined);
        const planId = planOf(layout)!.id;
        const plan = card(page, planId);
        // The new card lands where the page puts new cards; Fit brings the whole canvas into view.
        await plan.waitFor();
        await page.getByRole('button', { name: 'Fit', exact: true }).click();
        // Fit animates the viewport: click once the card has stopped moving (two frames in the same place).
        const settled = async () => {
          const first = await plan.boundingBox();
          await page.evaluate(
            () =>
              new Promise((resolve) =>
                (globalThis as unknown as { requestAnimationFrame(run: () => void): void }).requestAnimationFrame(() =>
                  (globalThis as unknown as { requestAnimationFrame(run: () => void): void }).requestAnimationFrame(
                    () => resolve(null),
                  ),
                ),
              ),
          );
          const second = await plan.boundingBox();
          return first !== null && second !== null && first.x === second.x && first.y === second.y;
        };
        await expect.poll(settled).toBe(true);
        await plan.getByRole('button', { name: 'Add camera' }).click();
        layout = await waitFor(read, (now) => camerasOf(now).length === 1);
        expect(camerasOf(layout)[0]).toMatchObject({ name: 'A', sensor: 'super35', lensMm: 50, shot: null });

        await chooseOption(plan, 'Camera A sensor format', { value: 'full_frame' });
        await waitFor(read, (now) => camerasOf(now)[0]?.sensor === 'full_frame');
        await chooseOption(plan, 'Camera A sensor format', { value: 'super35' });
        await waitFor(read, (now) => camerasOf(now)[0]?.sensor === 'super35');
        const lens = plan.getByRole('spinbutton', { name: 'Camera A lens (mm)' });
        await lens.fill('35');
        await lens.press('Enter');
        layout = await waitFor(read, (now) => camerasOf(now)[0]?.lensMm === 35);
        expect(shot5Lens(layout)).toBe(24);

        const before = layout.revision;
        await chooseOption(plan, 'Camera A shot', 'board · shot 5');
        layout = await waitFor(read, (now) => camerasOf(now)[0]?.shot !== null);
        expect(camerasOf(layout)[0]!.shot).toEqual({ board_node_id: 'board', shot_id: 's5' });
        // The link and the shot's new lens are one revision.
        expect(layout.revision).toBe(before + 1);
        expect(shot5Lens(layout)).toBe(35);

        const wedge = plan.locator(`[data-fov-wedge="${camerasOf(layout)[0]!.id}"]`);
        await expect
          .poll(async () => Math.abs((await wedgeAngle(wedge)) - horizontalFovDeg('super35', 35)))
          .toBeLessThan(0.1);
        expect(horizontalFovDeg('super35', 35)).toBeCloseTo(39.15, 1);
        await expect.poll(() => plan.locator('[data-camera-label]').textContent()).toBe('A · shot 5');
        await expect.poll(() => plan.locator('[data-camera-fov]').textContent()).toBe('39.1°');

        // Dragging the camera moves it on the plan.
        const handle = plan.locator('[data-camera-handle]');
        const box = (await handle.boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 40, { steps: 5 });
        await page.mouse.up();
        layout = await waitFor(read, (now) => (camerasOf(now)[0]?.x ?? 0) > 0);
        expect(camerasOf(layout)[0]!.y).toBeGreaterThan(0);
        expect(shot5Lens(layout)).toBe(35);

        const shot = await screenshot(page, `floor-plan-${target.name}`);
        expect(shot.inkRatio).toBeGreaterThan(0.01);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
