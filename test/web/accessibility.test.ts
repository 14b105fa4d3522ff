import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { seriousFindings } from '../support/axe.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { DESKTOP, WALL, card, launchBrowser, openLink, screenshot, signIn } from '../support/browser.js';
import { addCardOfEveryType } from '../support/demo-stage.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Accessibility: axe-core in real Chromium finds no serious or critical violation on any screen of the web canvas: the
 * sign-in page, the home and team pages, the canvas with a card of every node type, each side panel, the board page's
 * grid, list and animatic, the frame editor, Present and a guest's page opened from a share link.
 */

const sqlite = STORE_TARGETS[0]!;

describe('accessibility: axe-core on every screen', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await addCardOfEveryType(server.store, 'a11y');
    await addBoard(server);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the sign-in page', async () => {
    const secret = await server.store.sessions.createLoginLink(DEMO_OWNER, { expiresInMs: 60_000 });
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/auth/login?token=${secret}`);
      await page.getByRole('button', { name: /^Sign in as / }).waitFor();
      expect(await seriousFindings(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the home page', async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, null);
    try {
      await page.getByRole('link', { name: /main/ }).first().waitFor();
      expect(await seriousFindings(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  // axe reads the whole wall-sized canvas on each run, which takes seconds on a slow host: each screen is its own test,
  // with room for that.
  const AXE_ON_THE_WALL_MS = 90_000;

  /** The canvas signed in on a wall-sized screen, live, for one check. */
  async function onTheWall(check: (page: Page) => Promise<void>, options: BrowserContextOptions = {}): Promise<void> {
    const { context, page } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      WALL,
      options,
    );
    try {
      await page.locator('.feed-live').waitFor();
      await check(page);
    } finally {
      await context.close();
    }
  }

  it(
    'the canvas with a card of every node type, and the details of a selected node',
    () =>
      onTheWall(async (page) => {
        await card(page, 'a11y-imageGenNode').waitFor();
        expect(await seriousFindings(page), 'canvas').toEqual([]);
        await card(page, 'a11y-imageGenNode').click();
        expect(await seriousFindings(page), 'details of a selected node').toEqual([]);
      }),
    AXE_ON_THE_WALL_MS,
  );

  it.each(['History', 'Chat', 'Agents'])(
    'the %s side panel',
    (tab) =>
      onTheWall(async (page) => {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tab', { name: tab, selected: true }).waitFor();
        await page.locator('.side-body > *').first().waitFor();
        expect(await seriousFindings(page), tab).toEqual([]);
      }),
    AXE_ON_THE_WALL_MS,
  );

  it('on a tablet the canvas keeps the width, the palette and panel open as drawers, and axe finds nothing serious', async () => {
    const tablet = { width: 820, height: 1180 };
    const { context, page } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      tablet,
    );
    try {
      await page.locator('.feed-live').waitFor();
      const canvasBox = (await page.locator('main.canvas').boundingBox())!;
      expect(canvasBox.width).toBeGreaterThan(tablet.width * 0.95);
      await expect(page.locator('.palette').isVisible()).resolves.toBe(false);
      await expect(page.locator('.side').isVisible()).resolves.toBe(false);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.locator('.palette').waitFor();
      expect(await seriousFindings(page), 'palette drawer').toEqual([]);
      await page.getByRole('button', { name: 'Panel', exact: true }).click();
      await page.locator('.side').waitFor();
      await expect(page.locator('.palette').isVisible()).resolves.toBe(false);
      expect(await seriousFindings(page), 'panel drawer').toEqual([]);
      await screenshot(page, 'canvas-tablet');
    } finally {
      await context.close();
    }
  });

  it('the team page', async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, null);
    try {
      await page.goto(`${server.url}/p/demo/team`);
      await page.getByRole('heading', { name: 'Invite someone' }).waitFor();
      expect(await seriousFindings(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** The board page of the test's board, in one of its views. */
  async function onTheBoard(
    view: 'grid' | 'list' | 'animatic',
    check: (page: Page) => Promise<void>,
    viewport = DESKTOP,
    options: BrowserContextOptions = {},
  ): Promise<void> {
    const { context, page } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      viewport,
      options,
    );
    try {
      await page.goto(`${server.url}/p/demo/c/main/board/${BOARD}?view=${view}`);
      await page.locator('.feed-live').waitFor();
      await check(page);
    } finally {
      await context.close();
    }
  }

  it.each([
    ['grid', '.board-frame'],
    ['list', 'tr[data-shot-id]'],
    ['animatic', '.animatic-shot'],
  ] as const)('the board page, %s view', (view, shown) =>
    onTheBoard(view, async (page) => {
      await page.locator(shown).first().waitFor();
      expect(await seriousFindings(page), view).toEqual([]);
    }),
  );

  it('the frame editor, opened from the keyboard on the board page', () =>
    onTheBoard('grid', async (page) => {
      await page.locator('.board-frame').first().focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Draw shot 1' }).waitFor();
      await page.locator('.frame-editor[data-drawing-version]').waitFor();
      expect(await seriousFindings(page)).toEqual([]);
    }));

  it(
    'Present',
    () =>
      onTheWall(async (page) => {
        await card(page, BOARD).click();
        await page.getByRole('button', { name: 'Present', exact: true }).click();
        await page.getByRole('dialog', { name: /^Present/ }).waitFor();
        expect(await seriousFindings(page)).toEqual([]);
      }),
    AXE_ON_THE_WALL_MS,
  );

  it("a guest's page, opened from a share link", async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' });
    try {
      await page.locator('.feed-live').waitFor();
      const link = await page.evaluate(async (board) => {
        const response = await fetch('/api/v2/projects/demo/canvases/main/share-links', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-requested-by': 'canvas-mcp' },
          body: JSON.stringify({ node_id: board, expires_in_days: 7, downloads: [], review: 'comment' }),
        });
        return { status: response.status, url: String(((await response.json()) as { url?: unknown }).url) };
      }, BOARD);
      expect(link.status).toBe(201);
      const guest = await openLink(browser, link.url);
      try {
        await guest.page.getByRole('heading', { name: 'Opening' }).waitFor();
        expect(await seriousFindings(guest.page)).toEqual([]);
      } finally {
        await guest.context.close();
      }
    } finally {
      await context.close();
    }
  });

  describe('in the dark colour scheme (the system asks for it)', () => {
    const DARK: BrowserContextOptions = { colorScheme: 'dark' };
    /** The page took the dark colours: its background (the root's) is dark, not the light one. */
    const isDark = (page: Page) =>
      page.evaluate(() => {
        const doc = globalThis as unknown as {
          document: { documentElement: unknown };
          getComputedStyle(target: unknown): { backgroundColor: string };
        };
        const style = doc.getComputedStyle(doc.document.documentElement);
        const [red, green, blue] = (style.backgroundColor.match(/\d+/g) ?? []).map(Number);
        return (red ?? 255) + (green ?? 255) + (blue ?? 255) < 3 * 64;
      });

    it('the home page', async () => {
      const { context, page } = await signIn(browser, server, DEMO_OWNER, null, DESKTOP, DARK);
      try {
        await page.getByRole('link', { name: /main/ }).first().waitFor();
        expect(await isDark(page)).toBe(true);
        await screenshot(page, 'dark-home');
        expect(await seriousFindings(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it(
      'the canvas with a card of every node type',
      () =>
        onTheWall(async (page) => {
          await card(page, 'a11y-imageGenNode').waitFor();
          expect(await isDark(page)).toBe(true);
          expect(await seriousFindings(page)).toEqual([]);
          await page.setViewportSize(DESKTOP);
          await screenshot(page, 'dark-canvas');
        }, DARK),
      AXE_ON_THE_WALL_MS,
    );

    it('the board page, grid view', () =>
      onTheBoard(
        'grid',
        async (page) => {
          await page.locator('.board-frame').first().waitFor();
          expect(await isDark(page)).toBe(true);
          await screenshot(page, 'dark-board-grid');
          expect(await seriousFindings(page)).toEqual([]);
        },
        DESKTOP,
        DARK,
      ));
  });

  describe('at 768 × 1024 (a tablet upright) no screen scrolls sideways', () => {
    const UPRIGHT = { width: 768, height: 1024 };
    /** Whether the page is no wider than the window (nothing cut off to the right, no sideways scroll). */
    const fitsAcross = (page: Page) =>
      page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
          .documentElement;
        return root.scrollWidth <= (globalThis as unknown as { innerWidth: number }).innerWidth;
      });

    it.each([
      ['grid', '.board-frame'],
      ['list', 'tr[data-shot-id]'],
      ['animatic', '.animatic-shot'],
    ] as const)('the board page, %s view', (view, shown) =>
      onTheBoard(
        view,
        async (page) => {
          await page.locator(shown).first().waitFor();
          await screenshot(page, `board-${view}-768`);
          expect(await fitsAcross(page)).toBe(true);
          // The List's table fits too: no column is left behind a sideways scroll of its own.
          const wide = page.locator('.shot-table-wrap');
          if (view === 'list')
            expect(await wide.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
          // The top bar's controls wrap onto more lines rather than running off the right edge.
          const right = await page
            .locator('.board-topbar > *')
            .evaluateAll((items) =>
              Math.max(
                ...items.map(
                  (item) => (item as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right,
                ),
              ),
            );
          expect(right).toBeLessThanOrEqual(UPRIGHT.width);
        },
        UPRIGHT,
      ),
    );

    it('the History panel', async () => {
      const { context, page } = await signIn(
        browser,
        server,
        DEMO_OWNER,
        { projectId: 'demo', canvasId: 'main' },
        UPRIGHT,
      );
      try {
        await page.locator('.feed-live').waitFor();
        await page.getByRole('button', { name: 'Panel', exact: true }).click();
        await page.getByRole('tab', { name: 'History' }).click();
        await page.getByRole('tab', { name: 'History', selected: true }).waitFor();
        await page.locator('.side-body > *').first().waitFor();
        await screenshot(page, 'history-768');
        expect(await fitsAcross(page)).toBe(true);
        const body = page.getByRole('tabpanel', { name: 'History' });
        expect(await body.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      } finally {
        await context.close();
      }
    });

    it("the home page's name and picture", async () => {
      const { context, page } = await signIn(browser, server, DEMO_OWNER, null, UPRIGHT);
      try {
        const picture = page.getByRole('group', { name: 'Your picture' });
        await picture.waitFor();
        await screenshot(page, 'home-768');
        expect(await fitsAcross(page)).toBe(true);
        for (const row of [picture, page.locator('.your-name')]) {
          const box = (await row.boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(UPRIGHT.width);
        }
      } finally {
        await context.close();
      }
    });
  });

  it('works without a mouse: Tab reaches a card, Enter selects it and opens its details, arrow keys move it in one write', async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' }, WALL);
    try {
      await page.locator('.feed-live').waitFor();
      const before = (await server.store.layout.readCanvas('demo', 'main'))!.revision;
      const start = (await server.store.layout.readNode('demo', 'main', 'a11y-textAnnotationNode'))!.node.position;
      // Focus moves between cards with Tab; here straight to one card, as Tab would land on it.
      await card(page, 'a11y-textAnnotationNode').focus();
      await page.keyboard.press('Shift');
      const outline = await card(page, 'a11y-textAnnotationNode').evaluate(
        (element) =>
          (globalThis as unknown as { getComputedStyle(target: unknown): { outlineStyle: string } }).getComputedStyle(
            element,
          ).outlineStyle,
      );
      expect(outline).toBe('solid');
      await page.keyboard.press('Enter');
      await page.getByRole('tab', { name: 'Details', selected: true }).waitFor();
      await page.locator('.side').getByText('a11y-textAnnotationNode').first().waitFor();
      for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Shift+ArrowDown');
      const moved = await waitForNode(
        server,
        'a11y-textAnnotationNode',
        (position) => position.x !== start.x || position.y !== start.y,
      );
      expect(moved.x - start.x).toBe(15);
      expect(moved.y - start.y).toBe(20);
      // Four presses in a row are one write.
      expect((await server.store.layout.readCanvas('demo', 'main'))!.revision).toBe(before + 1);
    } finally {
      await context.close();
    }
  });
});

async function waitForNode(
  server: TestServer,
  nodeId: string,
  ok: (position: { x: number; y: number }) => boolean,
): Promise<{ x: number; y: number }> {
  const started = Date.now();
  for (;;) {
    const position = (await server.store.layout.readNode('demo', 'main', nodeId))!.node.position;
    if (ok(position)) return position;
    if (Date.now() - started > 10_000) throw new Error(`${nodeId} did not move: ${JSON.stringify(position)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A board of three shots on the demo canvas, for the board page, the frame editor, Present and the guest's page. */
const BOARD = 'a11y-board';

async function addBoard(server: TestServer): Promise<void> {
  const { revision } = (await server.store.layout.readCanvas('demo', 'main'))!;
  const node = CanvasNode.parse({
    id: BOARD,
    type: 'storyboardNode',
    position: { x: 0, y: 1400 },
    data: {
      displayName: 'Opening',
      title: 'Opening',
      aspectRatio: '16:9',
      frames: [1, 2, 3].map((number) => ({
        id: `s${number}`,
        number: String(number),
        imageUrl: null,
        caption: `Shot ${number}: the keeper climbs`,
        durationMs: 2000,
        status: 'draft',
      })),
    },
  });
  await server.store.writes.createNode(
    { projectId: 'demo', canvasId: 'main', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
    node,
  );
}
