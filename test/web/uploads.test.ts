import type { Browser, Page } from 'playwright-core';
import { dataTransferOf, pageFile } from '../support/page-files.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION, type CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { ffmpegFixture, HTML_PAGE, phonePhoto, png } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';

/**
 * Uploads in the web canvas, in Chromium with real files: dropped on the canvas (the cards appear where they were let
 * go, several at once, with progress), pasted from the clipboard, and picked from the palette; a refused file is said
 * in a notice and creates nothing.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

/** A file as the test hands it to the page. */
/** The little of the browser's DOM these checks use (the test program compiles without the DOM library). */
interface BrowserGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  ClipboardEvent: new (
    type: string,
    init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean },
  ) => unknown;
  atob(text: string): string;
  document: {
    dispatchEvent(event: unknown): boolean;
    querySelectorAll(selector: string): Iterable<{ complete: boolean; naturalWidth: number }>;
  };
}

/** The canvas point under a point of the page: from React Flow's viewport transform. */
async function canvasPointAt(page: Page, client: { x: number; y: number }) {
  const pane = (await page.locator('.react-flow').boundingBox())!;
  const transform = (await page.locator('.react-flow__viewport').getAttribute('style'))!;
  const [, x, y, zoom] = /translate\(([-\d.]+)px, ([-\d.]+)px\) scale\(([-\d.]+)\)/.exec(transform)!.map(Number);
  return { x: (client.x - pane.x - x!) / zoom!, y: (client.y - pane.y - y!) / zoom! };
}

describe('the web canvas: uploads', () => {
  let server: TestServer;
  let browser: Browser;
  let reader: string;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    reader = await projectToken(server.store, 'demo', 'viewer');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openBoard(canvasId: string) {
    await server.store.projects.createCanvas('demo', canvasId, false);
    const opened = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId });
    await opened.page.locator('.feed-live').waitFor();
    return opened;
  }
  /** The canvas as the server has it (REST, with a reader's token). */
  const layoutOf = async (canvasId: string): Promise<CanvasLayout> =>
    (
      (
        await api(server.url, `/api/v2/projects/demo/canvases/${canvasId}/snapshot`, {
          token: reader,
          headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
        })
      ).body as { layout: CanvasLayout }
    ).layout;

  it('puts files dropped on the canvas where they were let go, in one revision, showing progress on the way', async () => {
    const { context, page, errors } = await openBoard('dropped');
    try {
      const before = (await layoutOf('dropped')).revision;
      const files = [
        pageFile('IMG_0042.jpg', 'image/jpeg', await phonePhoto()),
        pageFile('reference.png', 'image/png', await png(600, 400)),
        pageFile('take 3.mp4', 'video/mp4', ffmpegFixture('mp4')),
      ];
      const pane = (await page.locator('.react-flow').boundingBox())!;
      const client = { x: pane.x + pane.width * 0.3, y: pane.y + pane.height * 0.4 };
      const dropPoint = await canvasPointAt(page, client);
      // A slow line (CDP's network throttling), so the progress is there to see.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 40_000,
      });
      const transfer = await dataTransferOf(page, files);
      const target = page.locator('.react-flow__pane');
      await target.dispatchEvent('dragover', { dataTransfer: transfer, clientX: client.x, clientY: client.y });
      await target.dispatchEvent('drop', { dataTransfer: transfer, clientX: client.x, clientY: client.y });
      const progress = page.locator('.upload-progress');
      await progress.waitFor();
      expect(await progress.textContent()).toContain('Uploading 3 files');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });

      const layout = await waitFor(
        () => layoutOf('dropped'),
        (now) => now.nodes.length === 3,
      );
      expect(layout.revision).toBe(before + 1);
      const byName = new Map(
        layout.nodes.map((node) => {
          const data = node.data as Record<string, unknown>;
          return [String(data.fileName ?? data.sourceFileName), node];
        }),
      );
      expect(byName.get('IMG_0042.jpg')?.type).toBe('uploadNode');
      expect(byName.get('reference.png')?.type).toBe('uploadNode');
      expect(byName.get('take 3.mp4')?.type).toBe('videoNode');
      // The first card is centred on the drop point; the others beside it.
      const first = layout.nodes[0]!;
      expect(Math.abs(first.position.x + 150 - dropPoint.x)).toBeLessThan(20);
      expect(Math.abs(first.position.y - dropPoint.y)).toBeLessThan(400);
      expect(layout.nodes[1]!.position.x).toBeGreaterThan(first.position.x);

      await page.locator('.card img.preview').nth(1).waitFor();
      await waitFor(
        () =>
          page.evaluate(() =>
            [...(globalThis as unknown as BrowserGlobals).document.querySelectorAll('.card img.preview')].map(
              (image) => image.complete && image.naturalWidth > 0,
            ),
          ),
        (loaded) => loaded.length === 2 && loaded.every(Boolean),
      );
      await waitFor(
        () => progress.count(),
        (count) => count === 0,
      );
      expect((await screenshot(page, 'uploads-dropped')).inkRatio).toBeGreaterThan(0.02);
      expect(await seriousFindings(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('uploads a picture pasted from the clipboard, and one picked from the palette', async () => {
    const { context, page, errors } = await openBoard('pasted');
    try {
      const transfer = await dataTransferOf(page, [pageFile('copied.png', 'image/png', await png(120, 80))]);
      await page.evaluate((clipboardData) => {
        const { ClipboardEvent, document } = globalThis as unknown as BrowserGlobals;
        document.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
      }, transfer);
      await waitFor(
        () => layoutOf('pasted'),
        (now) => now.nodes.length === 1,
      );

      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Upload files…' }).click();
      await (await chooser).setFiles([{ name: 'picked.png', mimeType: 'image/png', buffer: await png(90, 160) }]);
      const layout = await waitFor(
        () => layoutOf('pasted'),
        (now) => now.nodes.length === 2,
      );
      const names = layout.nodes.map((node) => (node.data as { fileName?: string }).fileName).sort();
      expect(names).toEqual(['copied.png', 'picked.png']);
      await page.getByText('picked.png').first().waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says in a notice what a refused file is, and creates nothing', async () => {
    const { context, page } = await openBoard('refused');
    try {
      const before = await layoutOf('refused');
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Upload files…' }).click();
      await (await chooser).setFiles([{ name: 'cat.png', mimeType: 'image/png', buffer: HTML_PAGE }]);
      const notice = page.locator('.notice-error');
      await notice.waitFor();
      expect(await notice.textContent()).toContain('Nothing was uploaded: cat.png: This file is an HTML document');
      const after = await layoutOf('refused');
      expect(after.revision).toBe(before.revision);
      expect(await seriousFindings(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
