import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * A board readable on a laptop, in Chromium: after Fit at 1440×900 and 1280×720 every card in view has a title of at
 * least 12 px on screen that is not cut; twenty cards added from the palette overlap nothing; the keyboard reaches a
 * card's actions in one key and Enter opens a text without typing into it; the first minutes say what to try, and each
 * tip goes once done.
 */

/** The little of the browser's DOM these checks read (the test program compiles without the DOM library). */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Element {
  getBoundingClientRect(): Box;
  querySelector(selector: string): Element | null;
  closest(selector: string): Element | null;
  getAttribute(name: string): string | null;
  dataset: Record<string, string | undefined>;
  scrollWidth: number;
  clientWidth: number;
  textContent: string | null;
  tagName: string;
}
interface BrowserWindow {
  document: {
    querySelector(selector: string): Element | null;
    querySelectorAll(selector: string): Iterable<Element>;
    activeElement: Element | null;
  };
  getComputedStyle(element: Element): { transform: string; fontSize: string };
  DOMMatrix: new (transform: string) => { a: number };
  localStorage: { removeItem(key: string): void };
}

/** A laptop's sizes, at which the board must read well. */
const LAPTOPS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/** Every card in view: its title's size on screen, whether its text is cut, and its box. */
async function cardsInView(page: Page) {
  return page.evaluate(() => {
    const { document, getComputedStyle, DOMMatrix } = globalThis as unknown as BrowserWindow;
    const viewport = document.querySelector('.react-flow__viewport')!;
    const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
    const pane = document.querySelector('.react-flow')!.getBoundingClientRect();
    return [...document.querySelectorAll('.react-flow__node')]
      .map((node) => {
        const box = node.getBoundingClientRect();
        const title = node.querySelector('.card-title, .group-label');
        const inView = box.right > pane.left && box.left < pane.right && box.bottom > pane.top && box.top < pane.bottom;
        return {
          id: node.dataset.id ?? '',
          inView,
          box: { x: box.x, y: box.y, width: box.width, height: box.height },
          titlePx: title ? parseFloat(getComputedStyle(title).fontSize) * zoom : null,
          cut: title ? title.scrollWidth > title.clientWidth + 1 : false,
          text: title?.textContent ?? '',
        };
      })
      .filter((entry) => entry.inView);
  });
}

describe('a board readable on a laptop', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!, { seedDemo: true });
    browser = await launchBrowser();
  });
  /** The demo owner on one of the demo's canvases, in a window of a laptop's size. */
  const onLaptop = (canvasId: string, viewport: (typeof LAPTOPS)[number]) =>
    signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId }, viewport);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const viewport of LAPTOPS) {
    it(`after Fit at ${viewport.width}×${viewport.height}, every card's title in view is readable and whole`, async () => {
      const { context, page, errors } = await onLaptop('main', viewport);
      try {
        await page.locator('.feed-live').waitFor();
        await card(page, 'frame-1').waitFor();
        await page.keyboard.press('f');
        await waitFor(
          () => cardsInView(page),
          (cards) => cards.length >= 4,
        );
        const cards = await cardsInView(page);
        for (const entry of cards) {
          expect(entry.titlePx, entry.id).toBeGreaterThanOrEqual(12);
          expect(entry.cut, `${entry.id}: ${entry.text}`).toBe(false);
        }
        // A note says what it says, not "Note".
        expect(cards.find((entry) => entry.id === 'note-1')?.text).not.toBe('Note');
        await screenshot(page, `fit-${viewport.width}x${viewport.height}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('the side panel’s tabs sit whole on one row, at a laptop’s sizes', async () => {
    for (const viewport of LAPTOPS) {
      const { context, page, errors } = await onLaptop('main', viewport);
      try {
        await page.getByRole('tab', { name: 'Agents' }).waitFor();
        const tabs = await page.evaluate(() => {
          const { document } = globalThis as unknown as BrowserWindow;
          const list = document.querySelector('.side [role="tablist"]')!.getBoundingClientRect();
          return [...document.querySelectorAll('.side [role="tab"]')].map((tab) => {
            const box = tab.getBoundingClientRect();
            return {
              label: tab.textContent,
              top: box.top,
              whole: box.left >= list.left - 0.5 && box.right <= list.right + 0.5 && tab.scrollWidth <= tab.clientWidth,
            };
          });
        });
        expect(tabs.map((tab) => tab.label)).toEqual([
          'Details',
          'Comments',
          'History',
          'Elements',
          'Exports',
          'Chat',
          'Agents',
        ]);
        for (const tab of tabs) {
          expect(tab.top, `${tab.label} at ${viewport.width}×${viewport.height}`).toBe(tabs[0]!.top);
          expect(tab.whole, `${tab.label} at ${viewport.width}×${viewport.height}`).toBe(true);
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('after Fit, no card is under the mini-map, at a laptop’s sizes', async () => {
    // A grid about as wide as the pane is tall: fitted edge to edge, its last card lands in the pane's bottom right
    // corner, where the mini-map floats.
    await server.store.projects.createCanvas('demo', 'corner', false);
    let revision = 0;
    for (let row = 0; row < 4; row += 1)
      for (let column = 0; column < 4; column += 1) {
        await server.store.writes.createNode(
          {
            projectId: 'demo',
            canvasId: 'corner',
            baseRevision: revision,
            clientSaveId: null,
            authorization: SYSTEM_WRITE,
          },
          CanvasNode.parse({
            id: `n${row}${column}`,
            type: 'textAnnotationNode',
            position: { x: column * 400, y: row * 370 },
            data: { content: `Row ${row + 1}, card ${column + 1}` },
          }),
        );
        revision += 1;
      }
    for (const viewport of LAPTOPS) {
      const { context, page, errors } = await onLaptop('corner', viewport);
      try {
        await page.locator('.feed-live').waitFor();
        await card(page, 'n33').waitFor();
        await page.keyboard.press('f');
        const miniMap = (await page.locator('.react-flow__minimap').boundingBox())!;
        const underMiniMap = async () =>
          (await cardsInView(page))
            .filter(
              ({ box }) =>
                box.x < miniMap.x + miniMap.width &&
                box.x + box.width > miniMap.x &&
                box.y < miniMap.y + miniMap.height &&
                box.y + box.height > miniMap.y,
            )
            .map((entry) => entry.id);
        // Every card in view, none under the mini-map (Fit moves the view over 200 ms: waited for, then read again).
        await waitFor(
          async () => ({ inView: (await cardsInView(page)).length, under: await underMiniMap() }),
          (seen) => seen.inView === 16 && seen.under.length === 0,
          5_000,
        );
        expect(await underMiniMap(), `${viewport.width}×${viewport.height}`).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('places twenty cards added from the palette where they overlap nothing', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      const revisionNow = async () => (await server.store.layout.readCanvas('demo', 'main'))!.revision;
      for (let added = 1; added <= 20; added += 1) {
        const revision = await revisionNow();
        await page.getByRole('button', { name: 'Note', exact: true }).click();
        await waitFor(revisionNow, (now) => now > revision);
      }
      await page.keyboard.press('f');
      const boxes = (await cardsInView(page)).map((entry) => ({ id: entry.id, ...entry.box }));
      const overlapping = boxes.flatMap((a, index) =>
        boxes
          .slice(index + 1)
          .filter((b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
          .map((b) => `${a.id} × ${b.id}`),
      );
      // A group holds its own cards: they are inside it by design.
      const layout = (await server.store.layout.loadLayout('demo', 'main'))!;
      const parentOf = new Map(
        layout.nodes.map((row) => [row.id, (JSON.parse(row.body) as { parentId?: string }).parentId]),
      );
      const nested = (pair: string) => {
        const [a, b] = pair.split(' × ') as [string, string];
        return parentOf.get(a) === b || parentOf.get(b) === a;
      };
      expect(overlapping.filter((pair) => !nested(pair))).toEqual([]);
      await screenshot(page, 'twenty-notes-placed');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("grows a group's frame with a card that grew past its edge, so the card never spills onto its neighbours", async () => {
    const revision = (await server.store.layout.readCanvas('demo', 'main'))!.revision;
    // A note near the bottom of the demo's group (520 high), long enough to be drawn well past the group's edge.
    await server.store.writes.createNode(
      { projectId: 'demo', canvasId: 'main', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
      CanvasNode.parse({
        id: 'long-note',
        type: 'textAnnotationNode',
        parentId: 'act-1',
        position: { x: 600, y: 420 },
        data: { displayName: 'Storm notes', content: 'The storm builds. '.repeat(40) },
      }),
    );
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      const note = card(page, 'long-note');
      await note.waitFor();
      const frame = card(page, 'act-1').locator('.group-frame');
      const inside = await waitFor(
        async () => ({ note: (await note.boundingBox())!, frame: (await frame.boundingBox())! }),
        ({ note, frame }) => note.height > 0 && frame.y + frame.height >= note.y + note.height,
      );
      expect(inside.frame.x + inside.frame.width).toBeGreaterThanOrEqual(inside.note.x + inside.note.width);
      await screenshot(page, 'group-grows-with-card');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("reaches a card's actions in one key, and Enter opens a text without typing into it", async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' });
    try {
      await page.locator('.feed-live').waitFor();
      await card(page, 'frame-1').click({ position: { x: 20, y: 10 } });
      await page.keyboard.press('a');
      // Zoomed out, the canvas first brings the card close enough to show its actions.
      const focused = await waitFor(
        () =>
          page.evaluate(() => {
            const { document } = globalThis as unknown as BrowserWindow;
            return {
              card: document.activeElement?.closest('.react-flow__node')?.getAttribute('data-id'),
              tag: document.activeElement?.tagName,
            };
          }),
        (now) => now.tag === 'BUTTON',
      );
      expect(focused.card).toBe('frame-1');
      const editable = card(page, 'frame-1').locator('.editable').first();
      const before = (await editable.textContent()) ?? '';
      await editable.focus();
      await page.keyboard.press('Enter');
      const field = card(page, 'frame-1').locator('textarea, input.editable-field').first();
      await field.waitFor();
      expect(await field.inputValue()).toBe(before === '' ? '' : before);
      await page.keyboard.press('Escape');
    } finally {
      await context.close();
    }
  });

  it("shows a storyboard group's shot numbers, row by row, when zoomed out", async () => {
    await server.store.projects.createCanvas('demo', 'numbered', false);
    const nodes = [
      {
        id: 'scene',
        type: 'groupNode',
        position: { x: 0, y: 0 },
        width: 1000,
        height: 560,
        data: { label: 'Scene 1', storyboardGroup: true },
      },
      // Stored out of order: the numbers follow the rows, left to right.
      ...[
        ['c', 700, 40],
        ['a', 40, 40],
        ['d', 40, 300],
        ['b', 370, 40],
      ].map(([id, x, y]) => ({
        id: `shot-${id}`,
        type: 'textAnnotationNode',
        parentId: 'scene',
        extent: 'parent',
        position: { x, y },
        data: { displayName: `Shot ${id}`, content: '' },
      })),
    ];
    for (const [index, node] of nodes.entries())
      await server.store.writes.createNode(
        {
          projectId: 'demo',
          canvasId: 'numbered',
          baseRevision: index,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        CanvasNode.parse(node),
      );
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'numbered' });
    try {
      await card(page, 'shot-a').waitFor();
      // At its natural size the group asks for no numbers (storyboardShowIndex is not set).
      expect(await page.locator('.shot-badge').count()).toBe(0);
      for (let step = 0; step < 8; step += 1) await page.locator('.react-flow__controls-zoomout').click();
      await page.locator('.card-overview .shot-badge').first().waitFor();
      const numbers = await Promise.all(
        ['a', 'b', 'c', 'd'].map((id) => card(page, `shot-${id}`).locator('.shot-badge').textContent()),
      );
      expect(numbers).toEqual(['1', '2', '3', '4']);
    } finally {
      await context.close();
    }
  });

  it('says what to try in the first minutes, and drops each tip once it is done', async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' });
    try {
      await page.locator('.feed-live').waitFor();
      await page.evaluate(() =>
        (globalThis as unknown as BrowserWindow).localStorage.removeItem('canvas-mcp.first-steps'),
      );
      await page.reload();
      const tips = page.locator('.first-steps');
      await tips.getByRole('heading', { name: 'Try this' }).waitFor();
      await tips.locator('[data-step="addCard"]').waitFor();
      expect(await seriousFindings(page)).toEqual([]);
      await page.getByRole('button', { name: 'Note', exact: true }).click();
      await tips.locator('[data-step="addCard"]').waitFor({ state: 'detached' });
      await tips.locator('[data-step="askAssistant"]').waitFor();
      await tips.getByRole('button', { name: 'Hide these tips' }).click();
      await tips.waitFor({ state: 'detached' });
      await page.getByText('Select a node to see its details.').waitFor();
    } finally {
      await context.close();
    }
  });
});
