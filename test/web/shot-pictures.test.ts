import type { Browser, Page } from 'playwright-core';
import { dataTransferOf, pageFile } from '../support/page-files.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, UploadReceipt, type CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { ffmpegFixture, png } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';

/**
 * Pictures on shots in Chromium, on both stores: a file dropped on a frame of the board's card becomes that shot's
 * picture in one revision (the replaced one kept as an earlier picture, picked back from the shot list), with no loose
 * upload card; several files fill the board's empty shots, then add shots; a card of the canvas dragged onto a frame
 * gives its picture and goes back where it was; a picture pasted on a focused frame or row; the Picture cell's Pick
 * dialog and Draw; a film dropped on a frame is refused, uploading and writing nothing. And two defects: Tab through a
 * multi-line Action writes nothing, and Present shows a picture in the board's shape.
 */

/** The little of the browser's DOM these checks use (the test program compiles without the DOM library). */
interface BrowserGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  ClipboardEvent: new (
    type: string,
    init: { clipboardData: unknown; bubbles: boolean; cancelable: boolean },
  ) => unknown;
  atob(text: string): string;
  document: { activeElement: { dispatchEvent(event: unknown): boolean } | null };
}

type Frame = Record<string, unknown> & { id: string; imageUrl: string | null; earlierPictures?: string[] };

/** An asset's path without the signature a read gave it. */
const pathOf = (url: string | null | undefined) => (url ?? '').split('?')[0];

describe.each(STORE_TARGETS)('pictures on shots: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;
    let editor: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      reader = await projectToken(server.store, 'demo', 'viewer');
      editor = await projectToken(server.store, 'demo', 'editor');
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = (canvasId: string) => readLayout(server, 'demo', canvasId, reader);
    const framesOf = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Frame[] }).frames;

    /** A picture uploaded over REST, as an agent would: its asset path and the card that shows it. */
    const made = new Set<string>();
    async function ensureCanvas(canvasId: string) {
      if (made.has(canvasId)) return;
      made.add(canvasId);
      await server.store.projects.createCanvas('demo', canvasId, false);
    }
    async function uploaded(canvasId: string, name: string, bytes: Buffer) {
      await ensureCanvas(canvasId);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
      const answer = await fetch(`${server.url}/api/v2/projects/demo/canvases/${canvasId}/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editor}` },
        body: form,
      });
      expect(answer.status).toBe(201);
      return UploadReceipt.parse(await answer.json()).uploads[0]!;
    }

    /** A canvas with a board (2.39:1) of the frames given and the cards given, opened by the owner. */
    async function openCanvas(canvasId: string, frames: Frame[], cards: CanvasNode[] = []) {
      await ensureCanvas(canvasId);
      const board = CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: { title: 'Opening', aspectRatio: '2.39:1', columns: 3, frames },
      });
      let revision = 0;
      for (const node of [board, ...cards]) {
        await server.store.writes.createNode(
          { projectId: 'demo', canvasId, baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
          node,
        );
        revision += 1;
      }
      const opened = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId });
      await opened.page.locator('.feed-live').waitFor();
      await frame(opened.page, frames[0]!.id).waitFor();
      return opened;
    }
    const frame = (page: Page, shotId: string) =>
      page.locator(`.react-flow__node[data-id="board"] figure[data-shot-id="${shotId}"]`);

    it('a picture dropped on a frame is its shot’s picture in one revision, the one it replaces picked back from the shot list', async () => {
      const before = await uploaded('dropped', 'before.png', await png(160, 90));
      const { context, page, errors } = await openCanvas('dropped', [
        { id: 'a', imageUrl: before.url, number: '1' },
        { id: 'b', imageUrl: null, number: '2' },
      ]);
      try {
        const start = (await read('dropped')).revision;
        const transfer = await dataTransferOf(page, [pageFile('sketch 1.png', 'image/png', await png(160, 90))]);
        await frame(page, 'a').dispatchEvent('dragover', { dataTransfer: transfer });
        await frame(page, 'a').dispatchEvent('drop', { dataTransfer: transfer });
        let layout = await waitFor(
          () => read('dropped'),
          (now) => now.revision > start,
        );
        expect(layout.revision).toBe(start + 1);
        // The board alone: the canvas made no loose upload card of the file.
        expect(layout.nodes.map((node) => node.id)).toEqual(['board']);
        const [shot] = framesOf(layout);
        const dropped = pathOf(shot!.imageUrl);
        expect(dropped).toMatch(/^\/assets\/asset_/);
        expect(dropped).not.toBe(before.url);
        expect(shot!.earlierPictures?.map(pathOf)).toEqual([before.url]);
        // With its author: the person who dropped it.
        const [entry] = await server.store.history.history('demo', 'dropped', start + 2, 1);
        expect(entry!.author).toEqual({ kind: 'person', issuer: DEMO_OWNER.issuer, subject: DEMO_OWNER.subject });

        // The shot list offers the earlier picture; picking it makes it the picture again, the dropped one first.
        await page.getByRole('button', { name: 'Shot list' }).click();
        await page.getByText('Earlier pictures (1)').click();
        await page.getByRole('button', { name: 'Use earlier picture 1 of shot 1' }).click();
        layout = await waitFor(
          () => read('dropped'),
          (now) => now.revision === start + 2,
        );
        expect(pathOf(framesOf(layout)[0]!.imageUrl)).toBe(before.url);
        expect(framesOf(layout)[0]!.earlierPictures?.map(pathOf)).toEqual([dropped]);
        expect(await seriousFindings(page)).toEqual([]);

        // Present shows the 16:9 picture in the board's 2.39:1 frame, never in its own shape.
        await page.getByRole('button', { name: 'Present', exact: true }).click();
        const picture = page.getByRole('dialog', { name: 'Present Opening' }).getByRole('img', { name: 'Shot 1' });
        await picture.waitFor();
        const box = (await picture.boundingBox())!;
        expect(box.width / box.height).toBeCloseTo(2.39, 1);
        await screenshot(page, `shot-pictures-present-${target.name}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('several files dropped on a board fill its empty shots in board order, then add shots after the last, in one revision', async () => {
      const kept = await uploaded('filled', 'kept.png', await png(40, 40));
      const { context, page, errors } = await openCanvas('filled', [
        { id: 'a', imageUrl: kept.url, number: '1' },
        { id: 'b', imageUrl: null, number: '2' },
        { id: 'c', imageUrl: null, number: '3' },
      ]);
      try {
        const start = (await read('filled')).revision;
        // Widths 11, 12, 13 say which file is which once kept.
        const files = await Promise.all(
          [11, 12, 13].map(async (width, index) => pageFile(`p${index + 1}.png`, 'image/png', await png(width, 10))),
        );
        const transfer = await dataTransferOf(page, files);
        await frame(page, 'b').dispatchEvent('dragover', { dataTransfer: transfer });
        await frame(page, 'b').dispatchEvent('drop', { dataTransfer: transfer });
        const layout = await waitFor(
          () => read('filled'),
          (now) => now.revision > start,
        );
        expect(layout.revision).toBe(start + 1);
        expect(layout.nodes).toHaveLength(1);
        const frames = framesOf(layout);
        expect(frames.map((each) => each.number)).toEqual(['1', '2', '3', '4']);
        expect(pathOf(frames[0]!.imageUrl)).toBe(kept.url);
        const widths = await Promise.all(
          frames.slice(1).map(async (each) => {
            const answer = await fetch(`${server.url}${each.imageUrl}`);
            return (await sharp(Buffer.from(await answer.arrayBuffer())).metadata()).width;
          }),
        );
        expect(widths).toEqual([11, 12, 13]);
        expect(frames[3]).toMatchObject({ status: 'draft' });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('a card dragged onto a frame gives that shot its picture, and goes back where it was', async () => {
      const photo = await uploaded('dragged', 'location.png', await png(160, 90));
      const upload = CanvasNode.parse({
        id: 'photo',
        type: photo.node_type,
        position: { x: 1100, y: 0 },
        data: photo.node_data,
      });
      const { context, page, errors } = await openCanvas(
        'dragged',
        [
          { id: 'a', imageUrl: null, number: '1' },
          { id: 'b', imageUrl: null, number: '2' },
        ],
        [upload],
      );
      try {
        const start = (await read('dragged')).revision;
        const cardBox = (await card(page, 'photo').boundingBox())!;
        const onScreenBefore = { x: cardBox.x, y: cardBox.y };
        const frameBox = (await frame(page, 'b').boundingBox())!;
        await page.mouse.move(cardBox.x + cardBox.width / 2, cardBox.y + 12);
        await page.mouse.down();
        await page.mouse.move(frameBox.x + frameBox.width / 2, frameBox.y + frameBox.height / 2, { steps: 12 });
        await page.mouse.up();
        const layout = await waitFor(
          () => read('dragged'),
          (now) => now.revision > start,
        );
        expect(layout.revision).toBe(start + 1);
        expect(pathOf(framesOf(layout)[1]!.imageUrl)).toBe(photo.url);
        expect(framesOf(layout)[0]!.imageUrl).toBeNull();
        expect(layout.nodes.find((node) => node.id === 'photo')!.position).toEqual({ x: 1100, y: 0 });
        await waitFor(
          async () => (await card(page, 'photo').boundingBox())!,
          (box) => Math.abs(box.x - onScreenBefore.x) < 2 && Math.abs(box.y - onScreenBefore.y) < 2,
        );
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('a picture pasted on a focused frame or shot-list row, and one picked from the canvas in an accessible dialog', async () => {
      const photo = await uploaded('pasted', 'reference.png', await png(90, 90));
      const upload = CanvasNode.parse({
        id: 'photo',
        type: photo.node_type,
        position: { x: 1100, y: 0 },
        data: { ...photo.node_data, displayName: 'Reference photo' },
      });
      const { context, page, errors } = await openCanvas(
        'pasted',
        [
          { id: 'a', imageUrl: null, number: '1' },
          { id: 'b', imageUrl: null, number: '2' },
          { id: 'c', imageUrl: null, number: '3' },
        ],
        [upload],
      );
      const paste = async (name: string) => {
        const transfer = await dataTransferOf(page, [pageFile(name, 'image/png', await png(50, 30))]);
        await page.evaluate((clipboardData) => {
          const { ClipboardEvent, document } = globalThis as unknown as BrowserGlobals;
          document.activeElement!.dispatchEvent(
            new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
          );
        }, transfer);
      };
      try {
        const start = (await read('pasted')).revision;
        await frame(page, 'b').focus();
        await paste('copied.png');
        let layout = await waitFor(
          () => read('pasted'),
          (now) => now.revision === start + 1,
        );
        expect(framesOf(layout).map((each) => each.imageUrl !== null)).toEqual([false, true, false]);

        await page.getByRole('button', { name: 'Shot list' }).click();
        await page.locator('tr[data-shot-id="c"]').focus();
        await paste('copied again.png');
        layout = await waitFor(
          () => read('pasted'),
          (now) => now.revision === start + 2,
        );
        expect(framesOf(layout).map((each) => each.imageUrl !== null)).toEqual([false, true, true]);
        expect(layout.nodes).toHaveLength(2);

        await page.getByRole('button', { name: 'Pick from the canvas for shot 1' }).click();
        const dialog = page.getByRole('dialog', { name: 'Pick a picture for shot 1' });
        await dialog.waitFor();
        expect(await seriousFindings(page)).toEqual([]);
        await dialog.getByRole('button', { name: 'Reference photo' }).click();
        layout = await waitFor(
          () => read('pasted'),
          (now) => now.revision === start + 3,
        );
        expect(pathOf(framesOf(layout)[0]!.imageUrl)).toBe(photo.url);
        await dialog.waitFor({ state: 'detached' });

        // Draw opens the frame editor on the shot.
        await page.getByRole('button', { name: 'Draw shot 2' }).click();
        // (The editor is another part's: named "Frame editor" while it loads, "Draw shot 2" once open.)
        await page
          .getByRole('dialog', { name: /^(Frame editor|Draw shot 2)$/ })
          .first()
          .waitFor({ timeout: 10_000 });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('a film dropped on a frame is refused on the frame naming it and what it is: nothing is uploaded or written', async () => {
      const { context, page } = await openCanvas('refused', [{ id: 'a', imageUrl: null, number: '1' }]);
      try {
        const uploads: string[] = [];
        page.on('request', (request) => {
          if (request.url().includes('/uploads')) uploads.push(request.url());
        });
        const before = await read('refused');
        const transfer = await dataTransferOf(page, [pageFile('take 3.mp4', 'video/mp4', ffmpegFixture('mp4'))]);
        await frame(page, 'a').dispatchEvent('dragover', { dataTransfer: transfer });
        await frame(page, 'a').dispatchEvent('drop', { dataTransfer: transfer });
        const notice = page.locator('.notice', { hasText: 'take 3.mp4 is a film (video/mp4), not a picture' });
        await notice.waitFor();
        expect(await notice.textContent()).toContain('Shot 1 of Opening');
        expect(await notice.textContent()).toContain('Nothing was changed.');
        // The refusal is decided before any upload starts: once it is said, nothing more can come of the drop.
        const after = await read('refused');
        expect(after.revision).toBe(before.revision);
        expect(after.nodes).toHaveLength(1);
        expect(uploads).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('Tab through a multi-line Action writes nothing; an edit keeps its line breaks', async () => {
      const { context, page, errors } = await openCanvas('tabbed', [
        { id: 'a', imageUrl: null, number: '1', action: 'She opens the door.\nThe room is dark.', caption: 'Door' },
      ]);
      try {
        await page.getByRole('button', { name: 'Shot list' }).click();
        const action = page.getByRole('textbox', { name: 'Action of shot 1' });
        await action.waitFor();
        const start = (await read('tabbed')).revision;
        await page.getByRole('textbox', { name: 'Description of shot 1' }).focus();
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect(await action.inputValue()).toBe('She opens the door.\nThe room is dark.');
        // A save from the Tabs would land first: the edit below must then be revision start + 2, or its text lost.

        await action.focus();
        await page.keyboard.press('Control+End');
        await page.keyboard.press('Shift+Enter');
        await page.keyboard.type('A match flares.');
        await page.keyboard.press('Enter');
        const layout = await waitFor(
          () => read('tabbed'),
          (now) => now.revision === start + 1,
        );
        expect(framesOf(layout)[0]!.action).toBe('She opens the door.\nThe room is dark.\nA match flares.');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
