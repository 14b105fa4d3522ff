import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { readLayout } from '../support/canvas-reads.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';
import { chooseOption } from '../support/controls.js';

/**
 * The shot list in Chromium: a board's shots as a table, edited in place (each change one revision on the server),
 * reordered with the keyboard's buttons and by dragging a row (numbers follow in the same revision), numbers locked (an
 * added shot is 3A), filtered, and downloaded as CSV; axe finds nothing serious.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

interface Frame {
  id: string;
  number?: string;
  lensMm?: number;
  shotSize?: string;
  status?: string;
}

describe('the web canvas: the shot list', () => {
  let server: TestServer;
  let browser: Browser;
  let reader: string;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'shots', false);
    const board = CanvasNode.parse({
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: {
        title: 'Opening',
        aspectRatio: '16:9',
        frames: [
          { id: 'a', imageUrl: null, number: '1', caption: 'The bay', scene: '1', status: 'approved' },
          { id: 'b', imageUrl: null, number: '2', caption: 'Mara turns', scene: '1', cast: ['Mara'] },
          { id: 'c', imageUrl: null, number: '3', caption: 'The lamp', scene: '2' },
        ],
      },
    });
    await server.store.writes.createNode(
      { projectId: 'demo', canvasId: 'shots', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      board,
    );
    reader = await projectToken(server.store, 'demo', 'viewer');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const read = () => readLayout(server, 'demo', 'shots', reader);
  const framesOf = (layout: CanvasLayout) =>
    (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Frame[]; numbersLocked?: boolean }).frames;
  const order = (layout: CanvasLayout) => framesOf(layout).map((frame) => `${frame.id}:${frame.number}`);
  const rows = (page: Page) =>
    page
      .locator('.shot-table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => `${tr.getAttribute('data-shot-id')}:${tr.querySelector('th')?.textContent}`),
      );

  it('edits, reorders, numbers, filters and downloads the shots of a board', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'shots',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('button', { name: 'Shot list' }).click();
      await page.locator('.shot-table tbody tr').nth(2).waitFor();
      expect(await rows(page)).toEqual(['a:1', 'b:2', 'c:3']);

      // A field edited in place is one revision on the server.
      let start = (await read()).revision;
      const lens = page.getByRole('textbox', { name: 'Lens of shot 2' });
      await lens.fill('35');
      await lens.press('Enter');
      let layout = await waitFor(read, (now) => now.revision === start + 1);
      expect(framesOf(layout)[1]).toMatchObject({ id: 'b', lensMm: 35 });
      // Text that is not a number is refused, saying so; the lens stays 35 (it is never cleared).
      await lens.fill('fifty');
      await lens.press('Enter');
      await page.locator('.notice-warning', { hasText: 'Lens of shot 2: "fifty" is not a number' }).waitFor();
      expect(await lens.inputValue()).toBe('35');
      expect((await read()).revision).toBe(start + 1);
      await chooseOption(page, 'Shot size of shot 1', 'CU');
      layout = await waitFor(read, (now) => now.revision === start + 2);
      expect(framesOf(layout)[0]!.shotSize).toBe('CU');

      // Reordered with a button: the numbers follow, in the same revision.
      await page.getByRole('button', { name: 'Move shot 3 up' }).click();
      layout = await waitFor(read, (now) => now.revision === start + 3);
      expect(order(layout)).toEqual(['a:1', 'c:2', 'b:3']);
      await waitFor(
        () => rows(page),
        (shown) => shown.join() === 'a:1,c:2,b:3',
      );

      // Dragged: the first row dropped on the last goes after it.
      const transfer = await page.evaluateHandle(
        () => new (globalThis as unknown as { DataTransfer: new () => object }).DataTransfer(),
      );
      await page.locator('tr[data-shot-id="a"]').dispatchEvent('dragstart', { dataTransfer: transfer });
      await page.locator('tr[data-shot-id="b"]').dispatchEvent('dragover', { dataTransfer: transfer });
      await page.locator('tr[data-shot-id="b"]').dispatchEvent('drop', { dataTransfer: transfer });
      layout = await waitFor(read, (now) => now.revision === start + 4);
      expect(order(layout)).toEqual(['c:1', 'b:2', 'a:3']);

      // Dragged on the canvas: a frame of the board's card dropped on another frame takes its place.
      const onCard = await page.evaluateHandle(
        () => new (globalThis as unknown as { DataTransfer: new () => object }).DataTransfer(),
      );
      const frame = (id: string) => page.locator(`.react-flow__node[data-id="board"] figure[data-shot-id="${id}"]`);
      await frame('a').dispatchEvent('dragstart', { dataTransfer: onCard });
      await frame('c').dispatchEvent('dragover', { dataTransfer: onCard });
      await frame('c').dispatchEvent('drop', { dataTransfer: onCard });
      layout = await waitFor(read, (now) => now.revision === start + 5);
      expect(order(layout)).toEqual(['a:1', 'c:2', 'b:3']);
      start += 1;

      // Locked numbers: an added shot after 3 is 3A, and the others keep theirs.
      await page.getByRole('checkbox', { name: 'Lock numbers' }).click();
      await waitFor(read, (now) => now.revision === start + 5);
      await page.getByRole('button', { name: 'Add a shot' }).click();
      layout = await waitFor(read, (now) => now.revision === start + 6);
      expect(order(layout).map((entry) => entry.split(':')[1])).toEqual(['1', '2', '3', '3A']);
      expect(framesOf(layout)[3]!.status).toBe('draft');

      // One frame shape for the whole board: the board's card draws its frames in it.
      await chooseOption(page, 'Frame', '9:16');
      layout = await waitFor(read, (now) => now.revision === start + 7);
      expect((layout.nodes.find((node) => node.id === 'board')!.data as { aspectRatio: string }).aspectRatio).toBe(
        '9:16',
      );
      await waitFor(
        () => page.locator('.react-flow__node[data-id="board"] .frame-empty').first().boundingBox(),
        (box) => box !== null && box.height > box.width * 1.5,
      );

      await page.locator('.shot-table-wrap').evaluate((wrap) => {
        (wrap as unknown as { scrollLeft: number }).scrollLeft = 0;
      });
      expect((await screenshot(page, 'shot-list')).inkRatio).toBeGreaterThan(0.02);

      // Filtered for reading: only the draft.
      await chooseOption(page, 'Status', { value: 'draft' });
      await waitFor(
        () => page.locator('.shot-table tbody tr').count(),
        (count) => count === 1,
      );
      expect(await page.getByRole('button', { name: 'Move shot 3A up' }).isDisabled()).toBe(true);

      const downloading = page.waitForEvent('download');
      await page.getByRole('link', { name: 'CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('Opening shot list.csv');
      const csv = readFileSync((await download.path())!, 'utf8');
      expect(csv).toContain('Shot,Scene,Shot size');
      expect(csv).toContain('3A,');

      expect(await seriousFindings(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('imports a script into scenes and shots, then a revision, showing what changed and flagging a shot', async () => {
    await server.store.projects.createCanvas('demo', 'script', false);
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'script',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('button', { name: 'Shot list' }).click();
      const pick = async (name: string) => {
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: 'Import script…' }).click();
        await (
          await chooser
        ).setFiles([{ name, mimeType: 'text/plain', buffer: readFileSync(`test/fixtures/scripts/${name}`) }]);
      };
      await pick('lighthouse.fountain');
      await page.getByText('Imported 3 scenes as 3 shots; cast: MARA, ODE.').waitFor();
      await page.locator('.shot-table tbody tr').nth(2).waitFor();
      expect(await page.getByRole('textbox', { name: 'Location of shot 1' }).inputValue()).toBe('LIGHTHOUSE');
      expect(await page.getByRole('textbox', { name: 'Dialogue of shot 1' }).inputValue()).toContain(
        'MARA (quietly): It is still burning.',
      );

      await pick('lighthouse-revised.fountain');
      await page
        .getByText('Since the last import: 1 added, 1 removed, 2 changed; 1 new shot, 2 shots to check.')
        .waitFor();
      await page.getByText('Added: EXT. CLIFF PATH - DAY').waitFor();
      await page.locator('.shot-table tbody tr').nth(3).waitFor();
      await page.getByRole('img', { name: /^Script changed: 1 script line this shot showed/ }).waitFor();
      await screenshot(page, 'script-import');
      expect(await seriousFindings(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
