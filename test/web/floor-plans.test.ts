import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, FloorPlanNodeData, type CanvasLayout } from '../../src/contract/index.js';
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
 * dragging the camera moves it on the plan. On a second plan a person draws a wall of three points (a double-click
 * ends it), puts a door in it, places a prop and a character; after a reload they are on the card as the contract
 * stores them; dragging the prop moves it, and Ctrl+Z puts it back; a selected wall's point is dragged; the wall is
 * deleted with Delete (the card stays) and Ctrl+Z brings it back; each edit is one revision.
 */

/** Waits until the card has stopped moving (Fit animates the viewport): two frames in the same place. */
async function settle(page: Page, target: Locator): Promise<void> {
  const still = async () => {
    const first = await target.boundingBox();
    await page.evaluate(
      () =>
        new Promise((resolve) =>
          (globalThis as unknown as { requestAnimationFrame(run: () => void): void }).requestAnimationFrame(() =>
            (globalThis as unknown as { requestAnimationFrame(run: () => void): void }).requestAnimationFrame(() =>
              resolve(null),
            ),
          ),
        ),
    );
    const second = await target.boundingBox();
    return first !== null && second !== null && first.x === second.x && first.y === second.y;
  };
  await expect.poll(still).toBe(true);
}

/**
 * The whole plan card in view: React Flow's own fit (which fits the card as drawn, taller than its stored size once its
 * tools are shown), then zoomed out while the drawing still reaches past the window's bottom.
 */
async function planInView(page: Page, plan: Locator, drawing: Locator): Promise<void> {
  await page.locator('.react-flow__controls-fitview').click();
  await settle(page, plan);
  for (let step = 0; step < 6; step += 1) {
    const box = (await drawing.boundingBox())!;
    if (box.y + box.height < page.viewportSize()!.height - 8) return;
    await page.locator('.react-flow__controls-zoomout').click();
    await settle(page, plan);
  }
  throw new Error('the plan does not fit in the window');
}

/** Where a point of the plan (metres) is on the screen, from the drawing's viewBox as it is now. */
async function onScreen(drawing: Locator, x: number, y: number): Promise<{ x: number; y: number }> {
  const [left, top, width, height] = (await drawing.getAttribute('viewBox'))!.split(' ').map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const box = (await drawing.boundingBox())!;
  return { x: box.x + ((x - left) / width) * box.width, y: box.y + ((y - top) / height) * box.height };
}

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
    });
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

    it('draws a wall, a door, a prop and a character on a plan; they stay after a reload; drag, delete and undo', async () => {
      await server.store.projects.createCanvas('demo', 'walls', false);
      await server.store.writes.createNode(
        { projectId: 'demo', canvasId: 'walls', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'plan',
          type: 'floorPlanNode',
          position: { x: 0, y: 0 },
          data: { walls: [], cameras: [] },
        }),
      );
      const readWalls = () => readLayout(server, 'demo', 'walls', reader);
      const stored = (layout: CanvasLayout) =>
        FloorPlanNodeData.parse(layout.nodes.find((node) => node.id === 'plan')!.data);
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'walls',
      });
      try {
        await page.locator('.feed-live').waitFor();
        const plan = card(page, 'plan');
        const drawing = plan.getByRole('img', { name: 'Floor plan' });
        /** Waits until the page shows the canvas at `revision` and saves nothing: its undo holds the write that made it. */
        const pageAt = async (revision: number) => {
          await page.getByText(`revision ${revision}`, { exact: true }).waitFor();
          await page.getByText('Saving…', { exact: true }).waitFor({ state: 'detached' });
        };
        await drawing.waitFor();
        await planInView(page, plan, drawing);
        const click = async (x: number, y: number, double = false) => {
          const at = await onScreen(drawing, x, y);
          if (double) await page.mouse.dblclick(at.x, at.y);
          else await page.mouse.click(at.x, at.y);
        };
        const near = (value: number, expected: number) => expect(Math.abs(value - expected)).toBeLessThan(0.15);

        // A wall of three points, the last one double-clicked.
        let revision = (await readWalls()).revision;
        await plan.getByRole('button', { name: 'Wall', exact: true }).click();
        await click(-3, -3);
        console.log(
          await plan.locator('[data-wall-draft] circle').count(),
          await drawing.getAttribute('viewBox'),
          JSON.stringify(await drawing.boundingBox()),
          JSON.stringify(await onScreen(drawing, -3, -3)),
        );
        await click(3, -3);
        console.log(
          await plan.locator('[data-wall-draft] circle').count(),
          await drawing.getAttribute('viewBox'),
          JSON.stringify(await drawing.boundingBox()),
        );
        await click(3, 3, true);
        console.log(await plan.locator('[data-wall-draft] circle').count(), await drawing.getAttribute('data-tool'));
        let layout = await waitFor(readWalls, (now) => stored(now).walls.length === 1);
        expect(layout.revision).toBe(revision + 1);
        const [wall] = stored(layout).walls;
        expect(wall!.points).toHaveLength(3);
        [
          [-3, -3],
          [3, -3],
          [3, 3],
        ].forEach(([x, y], index) => {
          near(wall!.points[index]!.x, x!);
          near(wall!.points[index]!.y, y!);
        });

        // A door on the wall's first (horizontal) side, a prop and a character.
        await planInView(page, plan, drawing);
        await plan.getByRole('button', { name: 'Door', exact: true }).click();
        await click(0, -3.1);
        layout = await waitFor(readWalls, (now) => (stored(now).doors ?? []).length === 1);
        expect(stored(layout).doors![0]).toMatchObject({ angleDeg: 0, width: 0.9 });
        near(stored(layout).doors![0]!.y, wall!.points[0]!.y);
        await plan.getByRole('button', { name: 'Prop', exact: true }).click();
        await plan.getByRole('textbox', { name: 'Name of the new prop' }).fill('Table');
        await click(0, 1);
        layout = await waitFor(readWalls, (now) => (stored(now).props ?? []).length === 1);
        const [table] = stored(layout).props!;
        expect(table).toMatchObject({ name: 'Table', width: 1, depth: 0.6 });
        near(table!.x, 0);
        near(table!.y, 1);
        await plan.getByRole('button', { name: 'Character', exact: true }).click();
        await plan.getByRole('textbox', { name: 'Name of the new character' }).fill('Mara');
        await click(-1, 2);
        layout = await waitFor(readWalls, (now) => (stored(now).characters ?? []).length === 1);
        const mara = stored(layout).characters![0]!;
        expect(mara.name).toBe('Mara');
        expect(stored(layout).beats![0]!.positions).toEqual([
          { character_id: mara.id, x: expect.any(Number), y: expect.any(Number) },
        ]);

        // After a reload, the card draws what the contract stores.
        await page.reload();
        await page.locator('.feed-live').waitFor();
        await drawing.waitFor();
        await expect
          .poll(() => plan.locator('[data-wall]').getAttribute('points'))
          .toBe(wall!.points.map(({ x, y }) => `${x},${y}`).join(' '));
        await expect.poll(() => plan.locator(`[data-prop="${table!.id}"] text`).textContent()).toBe('Table');
        await expect.poll(() => plan.locator(`[data-character="${mara.id}"] text`).textContent()).toBe('Mara');
        expect(await plan.locator('[data-door]').count()).toBe(1);

        // Dragging the prop moves it, in one revision; Ctrl+Z puts it back.
        await planInView(page, plan, drawing);
        revision = (await readWalls()).revision;
        const from = await onScreen(drawing, table!.x, table!.y);
        await page.mouse.move(from.x, from.y);
        await page.mouse.down();
        await page.mouse.move(from.x + 50, from.y + 30, { steps: 5 });
        await page.mouse.up();
        layout = await waitFor(readWalls, (now) => stored(now).props![0]!.x > table!.x);
        expect(stored(layout).props![0]!.y).toBeGreaterThan(table!.y);
        expect(layout.revision).toBe(revision + 1);
        // Ctrl+Z once the page has the drag's receipt (the undo is then the drag's).
        await pageAt(layout.revision);
        await page.keyboard.press('Control+z');
        layout = await waitFor(readWalls, (now) => stored(now).props![0]!.x === table!.x);
        expect(stored(layout).props![0]!.y).toBe(table!.y);

        // A selected wall shows its points: dragging the last one moves it, in one revision.
        await planInView(page, plan, drawing);
        await click(-1.5, -3);
        await expect
          .poll(() => plan.locator('[data-plan-selected]').getAttribute('data-plan-selected'))
          .toBe(`wall:${wall!.id}`);
        revision = (await readWalls()).revision;
        const corner = await onScreen(drawing, 3, 3);
        const to = await onScreen(drawing, 2, 3.5);
        await page.mouse.move(corner.x, corner.y);
        await page.mouse.down();
        await page.mouse.move(to.x, to.y, { steps: 5 });
        await page.mouse.up();
        layout = await waitFor(readWalls, (now) => stored(now).walls[0]!.points[2]!.x < 2.5);
        expect(layout.revision).toBe(revision + 1);
        const moved = stored(layout).walls[0]!;
        near(moved.points[2]!.x, 2);
        near(moved.points[2]!.y, 3.5);
        expect(moved.points.slice(0, 2)).toEqual(wall!.points.slice(0, 2));

        // The selected wall goes with Delete (the card stays), and Ctrl+Z brings it back.
        await page.keyboard.press('Delete');
        layout = await waitFor(readWalls, (now) => stored(now).walls.length === 0);
        expect(layout.nodes.some((node) => node.id === 'plan')).toBe(true);
        await pageAt(layout.revision);
        await page.keyboard.press('Control+z');
        layout = await waitFor(readWalls, (now) => stored(now).walls.length === 1);
        expect(stored(layout).walls[0]).toEqual(moved);

        const shot = await screenshot(page, `floor-plan-editing-${target.name}`);
        expect(shot.inkRatio).toBeGreaterThan(0.01);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
