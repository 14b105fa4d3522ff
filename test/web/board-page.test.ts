import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type CanvasLayout, type LayoutOperation } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { uploadedPicture } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';

/**
 * The board page (docs/ui.md, "The board page") in Chromium, on both stores: a storyboard opened as a page of its own
 * from its card, from the home page and by its address; the Grid with its fields, reordered by dragging (numbers
 * following, one revision), shots inserted, duplicated and deleted from the keyboard; the List edited in place with
 * the keyboard alone; the Animatic trimmed by dragging a shot's edge to whole frames and played; a second person's
 * page following an edit live; a board of 300 shots drawing only its rows on screen; axe finding nothing serious.
 */

const ANA = { issuer: 'https://idp.example', subject: 'ana' };
const SHOTS = 20;

interface Frame {
  id: string;
  number?: string;
  caption?: string;
  imageUrl?: string | null;
  durationMs?: number;
  status?: string;
}

/** An attribute of the element that has the keyboard's focus. */
const focused = (page: Page, attribute: string) =>
  page.evaluate(
    (name) =>
      (
        globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }
      ).document.activeElement?.getAttribute(name) ?? null,
    attribute,
  );

/** Colours of the pictures on the first shots (uploaded the way a script would), so the frames show something. */
const COLOURS = [
  { r: 38, g: 70, b: 120 },
  { r: 200, g: 120, b: 40 },
  { r: 60, g: 130, b: 90 },
  { r: 150, g: 50, b: 80 },
  { r: 90, g: 90, b: 160 },
  { r: 210, g: 180, b: 70 },
];

const boardNode = (id: string, count: number, title: string, pictures: readonly string[] = []) =>
  CanvasNode.parse({
    id,
    type: 'storyboardNode',
    position: { x: 0, y: 0 },
    data: {
      title,
      aspectRatio: '16:9',
      frames: Array.from({ length: count }, (_, index) => ({
        id: `s${index + 1}`,
        imageUrl: pictures[index] ?? null,
        number: String(index + 1),
        caption: `Shot ${index + 1}: the keeper climbs`,
        action: index % 2 === 0 ? 'Mara turns to the sea.' : 'The lamp flickers.',
        dialogue: index === 1 ? 'MARA: It is still burning.' : undefined,
        durationMs: 3000,
        status: 'draft',
      })),
    },
  });

describe.each(STORE_TARGETS)('the board page: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.addMember('demo', ANA, 'editor');
      const write = { projectId: 'demo', clientSaveId: null, authorization: SYSTEM_WRITE };
      await server.store.projects.createCanvas('demo', 'boards', false);
      const editor = await projectToken(server.store, 'demo', 'editor');
      const pictures: string[] = [];
      for (const [index, colour] of COLOURS.entries())
        pictures.push(
          await uploadedPicture(server, {
            projectId: 'demo',
            canvasId: 'boards',
            token: editor,
            name: `shot-${index + 1}.png`,
            colour,
          }),
        );
      const operations: LayoutOperation[] = [
        { op: 'create_node', node: boardNode('board', SHOTS, 'Opening', pictures) },
        ...(['voice', 'music'] as const).map((id, index): LayoutOperation => ({
          op: 'create_node',
          node: CanvasNode.parse({
            id,
            type: 'audioNode',
            position: { x: 1200, y: 300 * index },
            data: { displayName: id === 'voice' ? 'Mara (voice)' : 'Sea (music)', audioUrl: null },
          }),
        })),
        { op: 'create_edge', edge: { id: 'voice-s2', source: 'voice', target: 'board', data: { shotId: 's2' } } },
        { op: 'create_edge', edge: { id: 'music-bed', source: 'music', target: 'board' } },
      ];
      await server.store.writes.applyBatch({ ...write, canvasId: 'boards', baseRevision: 0 }, operations);
      await server.store.projects.createCanvas('demo', 'big', false);
      await server.store.writes.createNode(
        { ...write, canvasId: 'big', baseRevision: 0 },
        boardNode('long', 300, 'Feature'),
      );
      reader = await projectToken(server.store, 'demo', 'viewer');
      browser = await launchBrowser();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = (canvasId = 'boards') => readLayout(server, 'demo', canvasId, reader);
    const framesOf = (layout: CanvasLayout, nodeId = 'board') =>
      (layout.nodes.find((node) => node.id === nodeId)!.data as { frames: Frame[] }).frames;
    const boardUrl = (view?: string) => `${server.url}/p/demo/c/boards/board/board${view ? `?view=${view}` : ''}`;
    const frame = (page: Page, number: string) =>
      page
        .locator('.board-frame')
        .filter({ has: page.locator('.board-number', { hasText: new RegExp(`^Shot ${number}$`) }) });
    /** Every frame on screen: small frames, so a board of 20 fits the window. */
    const smallFrames = async (page: Page) => {
      await page.getByRole('slider', { name: 'Frame size' }).fill('160');
      await waitFor(
        () => page.locator('.board-frame').count(),
        (count) => count === SHOTS,
      );
    };

    it('opens from the storyboard card, from the home page and by its address; the grid shows the shots with their fields', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'boards',
      });
      page.setDefaultTimeout(10_000);
      try {
        await page.locator('.feed-live').waitFor();
        await card(page, 'board')
          .getByRole('link', { name: /^Open board/ })
          .click();
        await page.waitForURL(/\/p\/demo\/c\/boards\/board\/board$/);
        await page.getByRole('list', { name: 'Shots of Opening' }).waitFor();
        await page.locator('.board-frame').first().waitFor();
        expect(await page.locator('[role="listitem"][aria-posinset="1"]').getAttribute('aria-setsize')).toBe('20');
        expect((await screenshot(page, 'board-grid')).inkRatio).toBeGreaterThan(0.02);
        expect(await seriousFindings(page)).toEqual([]);

        // Every shot, numbered, with the fields chosen under it (description, action, dialogue, duration).
        await smallFrames(page);
        expect(await page.locator('.board-number').allTextContents()).toEqual(
          Array.from({ length: SHOTS }, (_, index) => `Shot ${index + 1}`),
        );
        expect(await page.getByRole('textbox', { name: 'Description of shot 20', exact: true }).inputValue()).toBe(
          'Shot 20: the keeper climbs',
        );
        expect(await page.getByRole('textbox', { name: 'Dialogue of shot 2', exact: true }).inputValue()).toBe(
          'MARA: It is still burning.',
        );
        expect(await page.getByRole('textbox', { name: 'Duration of shot 7', exact: true }).inputValue()).toBe('3');
        // The Fields menu: Camera shown, Action hidden, and kept in this browser.
        await page.getByRole('button', { name: 'Fields', exact: true }).click();
        await page.getByRole('menuitemcheckbox', { name: 'Camera' }).click();
        await page.getByRole('menuitemcheckbox', { name: 'Camera', checked: true }).waitFor();
        await page.getByRole('menuitemcheckbox', { name: 'Action' }).click();
        await page.getByRole('menuitemcheckbox', { name: 'Action', checked: false }).waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('combobox', { name: 'Shot size of shot 3', exact: true }).waitFor();
        expect(await page.getByRole('textbox', { name: 'Action of shot 3', exact: true }).count()).toBe(0);

        // Enter on a frame opens its frame editor; "?" lists the keys.
        await frame(page, '3').click();
        await page.keyboard.press('Enter');
        const editor = page.getByRole('dialog', { name: 'Draw shot 3' });
        await editor.waitFor();
        await editor.getByRole('button', { name: 'Done' }).click();
        await editor.waitFor({ state: 'detached' });
        await page.keyboard.press('?');
        const sheet = page.getByRole('dialog', { name: 'Keys of the board page' });
        await sheet.getByText('Insert a shot after / before the focused one').waitFor();
        expect(await seriousFindings(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await sheet.waitFor({ state: 'detached' });

        // It works on reload, with the fields as chosen.
        await page.reload();
        await page.getByRole('combobox', { name: 'Shot size of shot 1', exact: true }).waitFor();
        expect(await page.getByRole('textbox', { name: 'Action of shot 1', exact: true }).count()).toBe(0);

        // From the home page: the canvas's boards, each a link to its page.
        await page.goto(server.url);
        await page.locator('li[data-canvas="boards"] summary', { hasText: 'Boards' }).click();
        await page.getByRole('link', { name: 'Opening' }).click();
        await page.waitForURL(/\/p\/demo\/c\/boards\/board\/board$/);
        await page.locator('.board-frame').first().waitFor();
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('reorders three shots by dragging them (numbers follow, one revision), and inserts, duplicates and deletes from the keyboard', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, null);
      try {
        await page.goto(boardUrl());
        await page.locator('.feed-live').waitFor();
        await smallFrames(page);
        const start = await read();
        const ids = framesOf(start).map((shot) => shot.id);

        // Shots 2 to 4 selected (a click, then a Shift click), dragged by shot 3 onto the right half of shot 10.
        await frame(page, '2').click();
        await frame(page, '4').click({ modifiers: ['Shift'] });
        expect(await page.locator('.board-frame[aria-pressed="true"]').count()).toBe(3);
        const from = (await frame(page, '3').boundingBox())!;
        const to = (await frame(page, '10').boundingBox())!;
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 3);
        await page.mouse.down();
        await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 3, { steps: 4 });
        await page.mouse.move(to.x + to.width * 0.8, to.y + to.height / 3, { steps: 12 });
        await page.locator('.board-drop-after').waitFor();
        await page.mouse.up();
        let layout = await waitFor(read, (now) => now.revision > start.revision);
        expect(layout.revision).toBe(start.revision + 1);
        const moved = [ids[0], ...ids.slice(4, 10), ids[1], ids[2], ids[3], ...ids.slice(10)];
        expect(framesOf(layout).map((shot) => shot.id)).toEqual(moved);
        expect(framesOf(layout).map((shot) => shot.number)).toEqual(moved.map((_, index) => String(index + 1)));
        await waitFor(
          () => frame(page, '8').getAttribute('data-frame-id'),
          (id) => id === ids[1],
        );

        // I inserts a shot after the focused one; the numbers follow in the same revision.
        await frame(page, '1').click();
        await page.keyboard.press('i');
        layout = await waitFor(read, (now) => now.revision === start.revision + 2);
        expect(framesOf(layout)).toHaveLength(SHOTS + 1);
        expect(framesOf(layout)[1]).toMatchObject({ number: '2', status: 'draft' });
        expect(framesOf(layout)[1]!.id).not.toMatch(/^s\d+$/);
        // The new shot has the focus: its description is typed straight away.
        await waitFor(
          () => focused(page, 'data-frame-index'),
          (index) => index === '1',
        );

        // D duplicates the selected shot right after it.
        await frame(page, '5').click();
        await page.keyboard.press('d');
        layout = await waitFor(read, (now) => now.revision === start.revision + 3);
        expect(framesOf(layout)).toHaveLength(SHOTS + 2);
        expect(framesOf(layout)[5]).toMatchObject({ number: '6', caption: framesOf(layout)[4]!.caption });
        expect(framesOf(layout)[5]!.id).not.toBe(framesOf(layout)[4]!.id);

        // Delete removes the selected shots (a click and a Ctrl click) in one revision; Alt+→ moves the focused one.
        await frame(page, '3').click();
        await frame(page, '4').click({ modifiers: ['Control'] });
        const gone = [framesOf(layout)[2]!.id, framesOf(layout)[3]!.id];
        await page.keyboard.press('Delete');
        layout = await waitFor(read, (now) => now.revision === start.revision + 4);
        expect(framesOf(layout)).toHaveLength(SHOTS);
        expect(framesOf(layout).some((shot) => gone.includes(shot.id))).toBe(false);
        expect(framesOf(layout).map((shot) => shot.number)).toEqual(
          Array.from({ length: SHOTS }, (_, index) => String(index + 1)),
        );
        await frame(page, '1').click();
        await page.keyboard.press('Alt+ArrowRight');
        layout = await waitFor(read, (now) => now.revision === start.revision + 5);
        expect(framesOf(layout)[1]!.id).toBe('s1');
        // Ctrl+Z takes the move back, as one more revision.
        await page.keyboard.press('Control+z');
        layout = await waitFor(read, (now) => now.revision === start.revision + 6);
        expect(framesOf(layout)[0]!.id).toBe('s1');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('edits a field in place in the List with the keyboard alone, one revision, with no sideways scroll at 1280 px', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, null, { width: 1280, height: 800 });
      try {
        await page.goto(boardUrl());
        await page.locator('.feed-live').waitFor();
        // To the List tab with the keyboard: the tab of the current view takes the focus, an arrow the next.
        await page.getByRole('tab', { name: 'Grid' }).focus();
        await page.keyboard.press('ArrowRight');
        await page.locator('.shot-table tbody tr').first().waitFor();
        expect(new URL(page.url()).searchParams.get('view')).toBe('list');
        const wrap = page.locator('.shot-table-wrap');
        expect(await wrap.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);

        const start = await read();
        const target = framesOf(start)[1]!;
        const name = `Description of shot ${target.number}`;
        // Tab through the page to the description of the second shot: passing through writes nothing.
        for (let presses = 0; presses < 120; presses += 1) {
          if ((await focused(page, 'aria-label')) === name) break;
          await page.keyboard.press('Tab');
        }
        expect(await focused(page, 'aria-label')).toBe(name);
        expect((await read()).revision).toBe(start.revision);
        await page.keyboard.press('Control+a');
        await page.keyboard.type('Mara sees the light');
        await page.keyboard.press('Enter');
        const layout = await waitFor(read, (now) => now.revision > start.revision);
        expect(layout.revision).toBe(start.revision + 1);
        const after = framesOf(layout).find((shot) => shot.id === target.id)!;
        expect(after.caption).toBe('Mara sees the light');
        // Only that field was written: the shot is otherwise as it was.
        const unsigned = (shot: Frame) => ({ ...shot, imageUrl: shot.imageUrl?.split('?')[0] });
        expect(unsigned({ ...after, caption: target.caption })).toEqual(unsigned(target));

        expect((await screenshot(page, 'board-list')).inkRatio).toBeGreaterThan(0.02);
        expect(await seriousFindings(page)).toEqual([]);

        // The Columns menu shows a column kept off by default, and the page remembers it.
        await page.getByRole('button', { name: 'Columns', exact: true }).click();
        await page.getByRole('menuitemcheckbox', { name: 'Lens (mm)' }).click();
        await page.getByRole('menuitemcheckbox', { name: 'Lens (mm)', checked: true }).waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('textbox', { name: `Lens of shot ${target.number}`, exact: true }).waitFor();
        await page.reload();
        await page.getByRole('textbox', { name: `Lens of shot ${target.number}`, exact: true }).waitFor();
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('trims shot 5 in the Animatic by dragging its edge (whole frames, one revision) and with [ and ], and plays', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, null);
      page.setDefaultTimeout(10_000);
      try {
        await page.goto(boardUrl('animatic'));
        await page.locator('.feed-live').waitFor();
        const start = await read();
        const shot5 = framesOf(start)[4]!;
        const block = page.locator(`.animatic-block[data-shot-id="${shot5.id}"]`);
        await block.waitFor();
        // The board's sounds lie under the shots: the voice-over under shot 2, the music bed under them all.
        await page.getByRole('group', { name: 'Voice-over' }).getByText('Mara (voice)').waitFor();
        await page.getByRole('group', { name: 'Music' }).getByText('Sea (music)').waitFor();

        const before = Number(await block.getAttribute('data-duration-ms'));
        const box = (await block.boundingBox())!;
        const handle = (await block.locator('.animatic-trim').boundingBox())!;
        // Width ∝ duration: 60 px a second at the first zoom.
        expect(box.width).toBeCloseTo((before / 1000) * 60, 0);
        const y = handle.y + handle.height / 2;
        await page.mouse.move(handle.x + handle.width / 2, y);
        await page.mouse.down();
        await page.mouse.move(handle.x + handle.width / 2 + 25, y, { steps: 5 });
        await page.mouse.move(handle.x + handle.width / 2 + 50, y, { steps: 5 });
        await page.mouse.up();
        let layout = await waitFor(read, (now) => now.revision > start.revision);
        expect(layout.revision).toBe(start.revision + 1);
        const trimmed = framesOf(layout)[4]!.durationMs!;
        const frames = ((trimmed - before) * 24) / 1000;
        expect(frames).toBeGreaterThan(15);
        expect(Math.abs(frames - Math.round(frames))).toBeLessThan(0.05);
        // Nothing else of the board changed.
        expect(framesOf(layout).map((shot, index) => (index === 4 ? before : shot.durationMs))).toEqual(
          framesOf(start).map((shot) => shot.durationMs),
        );

        // The keyboard's way: ] three times is three frames longer, saved once the keys rest, as one revision.
        await block.getByRole('button').focus();
        for (let press = 0; press < 3; press += 1) await page.keyboard.press(']');
        layout = await waitFor(read, (now) => now.revision > start.revision + 1);
        expect(layout.revision).toBe(start.revision + 2);
        expect(Math.round(((framesOf(layout)[4]!.durationMs! - trimmed) * 24) / 1000)).toBe(3);
        await page.keyboard.press('Shift+BracketLeft');
        layout = await waitFor(read, (now) => now.revision > start.revision + 2);
        expect(Math.round(((framesOf(layout)[4]!.durationMs! - trimmed) * 24) / 1000)).toBe(3 - 24);

        expect((await screenshot(page, 'board-animatic')).inkRatio).toBeGreaterThan(0.02);
        expect(await seriousFindings(page)).toEqual([]);

        // Space plays: the playhead runs over the strip and the shot under it is shown large; Space again pauses.
        await page.getByRole('button', { name: /^Shot 1,/ }).click();
        await page.keyboard.press('Space');
        await page.getByRole('button', { name: 'Pause' }).waitFor();
        const playhead = page.locator('.animatic-playhead');
        await waitFor(
          async () => Number(await playhead.getAttribute('data-time-ms')),
          (ms) => ms > 3200,
        );
        await page.locator('.animatic-stage figcaption', { hasText: 'Shot 2' }).waitFor();
        await page.keyboard.press('Space');
        await page.getByRole('button', { name: 'Play' }).waitFor();
        const paused = Number(await playhead.getAttribute('data-time-ms'));
        // Ten frames of the page later, the playhead has not moved.
        await page.evaluate(
          () =>
            new Promise<void>((resolve) => {
              const { requestAnimationFrame: next } = globalThis as unknown as {
                requestAnimationFrame: (callback: () => void) => void;
              };
              let frames = 0;
              const tick = () => (++frames >= 10 ? resolve() : next(tick));
              next(tick);
            }),
        );
        expect(Number(await playhead.getAttribute('data-time-ms'))).toBe(paused);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it("shows another person's edit live, and who else is on the board", async () => {
      const owner = await signIn(browser, server, DEMO_OWNER, null);
      const ana = await signIn(browser, server, ANA, null);
      try {
        await owner.page.goto(boardUrl());
        await ana.page.goto(boardUrl());
        await owner.page.locator('.feed-live').waitFor();
        await ana.page.locator('.feed-live').waitFor();
        await ana.page.locator('.who-is-here').getByText(DEMO_OWNER.subject).waitFor();
        const number = framesOf(await read())[0]!.number!;
        const description = owner.page.getByRole('textbox', { name: `Description of shot ${number}`, exact: true });
        await description.fill('The storm arrives');
        await description.press('Enter');
        await waitFor(
          () => ana.page.getByRole('textbox', { name: `Description of shot ${number}`, exact: true }).inputValue(),
          (value) => value === 'The storm arrives',
          5_000,
        );
        expect(owner.errors).toEqual([]);
        expect(ana.errors).toEqual([]);
      } finally {
        await owner.context.close();
        await ana.context.close();
      }
    });

    it('draws only the rows on screen of a board of 300 shots, to its last shot', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, null);
      try {
        await page.goto(`${server.url}/p/demo/c/big/board/long`);
        await page.locator('.board-frame').first().waitFor();
        expect(await page.locator('[role="listitem"]').first().getAttribute('aria-setsize')).toBe('300');
        expect(await page.locator('.board-frame').count()).toBeLessThan(60);
        await page.locator('.board-grid-scroll').evaluate((element) => {
          (element as unknown as { scrollTop: number; scrollHeight: number }).scrollTop = (
            element as unknown as { scrollHeight: number }
          ).scrollHeight;
        });
        await frame(page, '300').waitFor();
        expect(await page.locator('.board-frame').count()).toBeLessThan(60);
        // The keyboard reaches it too: End, then Home, scrolls the grid to each end.
        await frame(page, '300').click();
        await page.keyboard.press('Home');
        await frame(page, '1').waitFor();
        await waitFor(
          () => focused(page, 'data-frame-index'),
          (index) => index === '0',
        );
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
