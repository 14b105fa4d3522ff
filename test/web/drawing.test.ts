import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { CanvasNode, ExportView, type CanvasLayout, type Drawing } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { readLayout, signedInPerson } from '../support/canvas-reads.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas, projectToken } from '../support/tokens.js';
import { connectClient } from '../support/mcp.js';
import { line, pointers, strokeThrough } from '../support/pointers.js';
import { uploadedPicture } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';

/**
 * Drawing on a frame in Chromium, on both stores: an artist opens shot 3 from the board, sketches with a pen (synthetic
 * pointer events with pointerType pen and pressure) in rough and ink over a reference photo, with the previous shot's
 * onion skin and the title-safe guide on; a resting palm (touch while a pen is in use) draws nothing; undo and redo are
 * the editor's; each stroke is on the server as it ends (a tab closed right after a stroke loses nothing); another
 * person watching the board sees the frame change; the board's card shows the sketch.
 */

const FRAMES = [
  { id: 's1', imageUrl: null, caption: 'The bay' },
  { id: 's2', imageUrl: null, caption: 'Mara turns' },
  { id: 's3', imageUrl: null, caption: 'The lamp' },
  { id: 's4', imageUrl: null, caption: 'Out to sea' },
];

/** A stroke on the editor's live surface (a pen unless said otherwise), pressure rising from 0.2 to 0.9. */
const penStroke = (
  page: Page,
  points: Array<[number, number]>,
  options: { pointerType?: 'pen' | 'touch'; pointerId?: number; pressure?: [number, number] } = {},
) => pointers(page, '.frame-editor-live', strokeThrough(points, options));

describe.each(STORE_TARGETS)('the frame editor: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;
    let photoUrl: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.createCanvas('demo', 'draw', false);
      const editor = await projectToken(server.store, 'demo', 'editor');
      photoUrl = await uploadedPicture(server, {
        projectId: 'demo',
        canvasId: 'draw',
        token: editor,
        name: 'reference.png',
      });
      const frames = FRAMES.map((frame) =>
        frame.id === 's3' || frame.id === 's2' ? { ...frame, imageUrl: photoUrl } : frame,
      );
      await server.store.writes.createNode(
        { projectId: 'demo', canvasId: 'draw', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: { title: 'Lighthouse', aspectRatio: '16:9', frames },
        }),
      );
      reader = await projectToken(server.store, 'demo', 'viewer');
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'draw', reader);
    const frameOf = (layout: CanvasLayout, id: string) =>
      (
        layout.nodes.find((node) => node.id === 'board')!.data as { frames: Array<Record<string, unknown>> }
      ).frames.find((frame) => frame.id === id)!;
    const drawing = async () =>
      (await api(server.url, '/api/v2/projects/demo/canvases/draw/nodes/board/shots/s3/drawing', { token: reader }))
        .body as Drawing;
    const strokesOn = (shown: Drawing, layer: string) => shown.layers.find((each) => each.name === layer)!.strokes;
    const versionOf = async () => (await drawing()).version;

    it('sketches shot 3 in rough and ink with a pen, over its photo, with onion skin and the title-safe guide', async () => {
      const artist = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'draw' });
      const watcher = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'draw' });
      const { page } = artist;
      try {
        await page.locator('.feed-live').waitFor();
        await watcher.page.locator('.feed-live').waitFor();
        await card(page, 'board').locator('[data-shot-id="s3"]').dblclick();
        const editor = page.getByRole('dialog', { name: 'Draw shot 3' });
        await editor.waitFor();
        await editor.locator('.frame-editor-under').waitFor();

        // The guide and the onion skin, then a rough stroke with the pen.
        await editor.getByRole('checkbox', { name: 'Title safe 90 %' }).check();
        await editor.getByRole('checkbox', { name: 'Previous shot' }).check();
        await editor.locator('.frame-editor-onion.onion-previous').waitFor();
        await penStroke(page, line(0.4));
        await waitFor(versionOf, (version) => version === 1);
        let shown = await drawing();
        const rough = strokesOn(shown, 'rough');
        expect(rough).toHaveLength(1);
        const pressures = rough[0]!.points.map((point) => point[2]);
        expect(pressures[0]).toBeLessThan(0.3);
        expect(pressures.at(-1)).toBeGreaterThan(0.8);
        expect(shown.pictureUnderUrl).toBe(photoUrl);

        // Ink on the ink layer.
        await editor.getByRole('radio', { name: /Ink/ }).check();
        await penStroke(page, line(0.6), { pressure: [0.5, 0.5] });
        await waitFor(versionOf, (version) => version === 2);

        // A palm resting while the pen is in use draws nothing; the next pen stroke does.
        await penStroke(page, line(0.8), { pointerType: 'touch', pointerId: 21 });
        await penStroke(page, line(0.7), { pressure: [0.6, 0.6] });
        await waitFor(versionOf, (version) => version === 3);
        shown = await drawing();
        expect(strokesOn(shown, 'ink')).toHaveLength(2);
        expect(strokesOn(shown, 'rough')).toHaveLength(1);

        // Undo and redo are the editor's (the canvas's own undo is not asked).
        await page.keyboard.press('Control+z');
        await waitFor(versionOf, (version) => version === 4);
        expect(strokesOn(await drawing(), 'ink')).toHaveLength(1);
        await page.keyboard.press('Control+Shift+z');
        await waitFor(versionOf, (version) => version === 5);
        expect(strokesOn(await drawing(), 'ink')).toHaveLength(2);

        // The title-safe guide at 5 % in from each edge of the frame, to the pixel.
        const stage = (await editor.locator('.frame-editor-stage').boundingBox())!;
        const guide = (await editor.locator('[data-guide="titleSafe"]').boundingBox())!;
        expect(Math.abs(guide.x - (stage.x + stage.width * 0.05))).toBeLessThan(1.5);
        expect(Math.abs(guide.width - stage.width * 0.9)).toBeLessThan(2);
        const shot = await screenshot(page, 'drawing-editor');
        expect(shot.inkRatio).toBeGreaterThan(0.2);

        // The watcher's board shows the drawn frame: the picture the last save rendered.
        const layout = await read();
        const drawn = frameOf(layout, 's3');
        const assetId = /asset_[A-Za-z0-9_-]{16}/.exec(String(drawn.imageUrl))![0];
        // The photo the sketch covers stays an earlier picture of the shot (signed for the reader, as every asset URL).
        expect((drawn.earlierPictures as string[]).map((url) => url.split('?')[0])).toEqual([photoUrl]);
        await waitFor(
          () => card(watcher.page, 'board').locator('[data-shot-id="s3"] img').getAttribute('src'),
          (src) => (src ?? '').includes(assetId),
        );

        // An agent adds a push-in arrow to shot 4's notes layer with the edit-in-place tool's write: the artist sees it.
        const agent = await agentOnCanvas(server.store, {
          projectId: 'demo',
          canvasId: 'draw',
          name: 'previs',
          toolSets: ['edit'],
        });
        const client = await connectClient(server.server.mcpUrl, {
          Authorization: `Bearer ${agent.secret}`,
          'X-Agent-Run-Id': agent.chatRunId,
        });
        const board = layout.nodes.find((node) => node.id === 'board')!;
        const boardData = board.data as { frames: Array<Record<string, unknown>> };
        const frames = boardData.frames.map((frame) =>
          frame.id === 's4'
            ? { ...frame, marks: [{ tool: 'arrow', colour: '#dc2626', points: [0.2, 0.5, 0.8, 0.5] }] }
            : frame,
        );
        const marked = await client.callTool({
          name: 'apply_canvas_changes',
          arguments: {
            project_id: 'demo',
            canvas_id: 'draw',
            base_revision: layout.revision,
            operations: [{ op: 'update_node', node_id: 'board', set: { data: { ...boardData, frames } } }],
          },
        });
        await client.close();
        expect(marked.isError ?? false, JSON.stringify(marked.content)).toBe(false);
        await card(page, 'board').locator('[data-shot-id="s4"] .shot-marks[data-marks="1"]').waitFor();

        // Closed with Done: the artist's own board shows it too.
        await editor.getByRole('button', { name: 'Done' }).click();
        await editor.waitFor({ state: 'detached' });
        await waitFor(
          () => card(page, 'board').locator('[data-shot-id="s3"] img').getAttribute('src'),
          (src) => (src ?? '').includes(assetId),
        );
        // The shot list and Present show the sketch too: every place a shot's picture is shown reads the same picture.
        await page.getByRole('button', { name: 'Shot list' }).click();
        await waitFor(
          () => page.locator('tr[data-shot-id="s3"] img.shot-thumb').first().getAttribute('src'),
          (src) => (src ?? '').includes(assetId),
        );
        await card(page, 'board').click();
        await page.getByRole('button', { name: 'Present' }).click();
        const present = page.getByRole('dialog', { name: /^Present/ });
        await present.waitFor();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        await waitFor(
          () => present.locator('img').first().getAttribute('src'),
          (src) => (src ?? '').includes(assetId),
        );
        await page.keyboard.press('Escape');
        expect(artist.errors).toEqual([]);
      } finally {
        await artist.context.close();
        await watcher.context.close();
      }
    }, 120_000);

    it("prints the sketch in the next PDF: shot 3's picture there holds its ink", async () => {
      const asOwner = await signedInPerson(server, DEMO_OWNER);
      const started = await api(
        server.url,
        '/api/v2/projects/demo/canvases/draw/exports',
        asOwner({ method: 'POST', body: { kind: 'pdf_board', node_id: 'board', options: {} } }),
      );
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const queued = ExportView.parse(started.body);
      const view = await waitFor(
        async () =>
          ExportView.parse(
            (
              await api(server.url, `/api/v2/projects/demo/canvases/draw/exports/${queued.export_id}`, {
                token: reader,
              })
            ).body,
          ),
        (job) => job.status !== 'queued' && job.status !== 'running',
        120_000,
        100,
      );
      expect(view.status, JSON.stringify(view)).toBe('succeeded');
      const bytes = Buffer.from(
        await (
          await fetch(`${server.url}${view.file!.url}`, { headers: { authorization: `Bearer ${reader}` } })
        ).arrayBuffer(),
      );
      // The pictures the PDF paints, by how much near-black ink each holds: the sketched shot alone holds some.
      const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
      const page = await pdf.getPage(1);
      const operators = await page.getOperatorList();
      const inked: number[] = [];
      for (const [index, fn] of operators.fnArray.entries()) {
        if (fn !== OPS.paintImageXObject) continue;
        const name = operators.argsArray[index]![0] as string;
        const image = (await new Promise((resolve) => page.objs.get(name, resolve))) as {
          width: number;
          height: number;
          data: Uint8ClampedArray;
        };
        const channels = image.data.length / (image.width * image.height);
        let dark = 0;
        for (let at = 0; at < image.data.length; at += channels)
          if (image.data[at]! < 60 && image.data[at + 1]! < 60 && image.data[at + 2]! < 60) dark += 1;
        inked.push(dark);
      }
      expect(inked.length).toBeGreaterThanOrEqual(2);
      expect(inked.filter((dark) => dark > 50)).toHaveLength(1);
    }, 180_000);

    it('keeps a stroke made just before the tab is closed', async () => {
      const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'draw' });
      try {
        await page.locator('.feed-live').waitFor();
        await card(page, 'board').locator('[data-shot-id="s3"]').dblclick();
        await page.getByRole('dialog', { name: 'Draw shot 3' }).locator('.frame-editor-under').waitFor();
        const before = await versionOf();
        await penStroke(page, line(0.2));
        await page.close();
        await waitFor(versionOf, (version) => version === before + 1);
        const inked = (await drawing()).layers.reduce((sum, layer) => sum + layer.strokes.length, 0);
        expect(inked).toBe(4);
      } finally {
        await context.close();
      }
    });
  });
});
