import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, ExportView, type CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { editFcpXml } from '../support/timeline-edits.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * The Conform button of the Exports tab in Chromium, on both stores: a board's cut exported as FCP 7 XML over REST,
 * the XML edited as an editor would (shot 3 trimmed by one frame, the clips after it rippling up), and chosen with
 * Conform…: the report names shot 3 and its frames before and after, the board's shot 3 is a frame shorter, the other
 * shots keep their lengths. A file that is no timeline is refused with the route's reason.
 */

const CANVAS = '/api/v2/projects/demo/canvases/cut';
/** Whole frames at 24 fps: 2 s is 48 frames, 2.5 s 60. */
const DURATIONS = [2000, 1500, 2500, 2000, 1000];

describe.each(STORE_TARGETS)('conform from the Exports tab: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;
    let editor: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.createCanvas('demo', 'cut', false);
      await server.store.writes.createNode(
        { projectId: 'demo', canvasId: 'cut', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: {
            title: 'Harbour',
            aspectRatio: '16:9',
            frames: DURATIONS.map((durationMs, index) => ({
              id: `s${index + 1}`,
              imageUrl: null,
              number: String(index + 1),
              durationMs,
            })),
          },
        }),
      );
      reader = await projectToken(server.store, 'demo', 'viewer');
      editor = await projectToken(server.store, 'demo', 'editor');
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'cut', reader);
    const durations = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Array<{ durationMs?: number }> }).frames.map(
        (frame) => frame.durationMs,
      );

    /** The board's cut as FCP 7 XML, through the exports route, as an editor downloads it. */
    async function exportedXml(): Promise<string> {
      const started = await api(server.url, `${CANVAS}/exports`, {
        method: 'POST',
        token: editor,
        body: { kind: 'fcp_xml', node_id: 'board' },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const { export_id } = ExportView.parse(started.body);
      const done = await waitFor(
        async () => ExportView.parse((await api(server.url, `${CANVAS}/exports/${export_id}`, { token: reader })).body),
        (job) => job.status !== 'queued' && job.status !== 'running',
        60_000,
        100,
      );
      expect(done.status, JSON.stringify(done)).toBe('succeeded');
      const download = await fetch(`${server.url}${done.file!.url}`, {
        headers: { authorization: `Bearer ${reader}` },
      });
      return download.text();
    }

    it("conforms the board to an editor's FCP 7 XML with one shot trimmed by a frame, and says so", async () => {
      // In the editor: shot 3 one frame shorter (60 → 59 frames), shots 4 and 5 rippling up.
      const edited = editFcpXml(await exportedXml(), [{ trim: 2, by: 1 }]);
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'cut',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.getByRole('tab', { name: 'Exports' }).click();
        const conform = page.getByRole('region', { name: 'Conform' });
        await conform.getByRole('button', { name: 'Conform…' }).waitFor();
        const before = (await read()).revision;

        await conform
          .getByLabel('Conform the board to a timeline file: OTIO, FCP 7 XML, FCPXML or EDL')
          .setInputFiles({ name: 'Harbour.xml', mimeType: 'application/xml', buffer: Buffer.from(edited) });
        const report = conform.getByRole('status');
        await expect.poll(() => report.textContent()).toContain('Conformed to Harbour.xml');
        expect(await report.locator('strong').textContent()).toBe(
          `Conformed to Harbour.xml (Final Cut Pro 7 XML (xmeml), 5 clips at 24 fps) in revision ${before + 1}: 1 duration.`,
        );
        expect(await report.getByRole('listitem').allTextContents()).toEqual([
          'Shot 3: 2.50 s → 2.46 s (60 → 59 frames at 24 fps)',
        ]);
        const layout = await waitFor(read, (now) => now.revision === before + 1);
        expect(durations(layout)).toEqual([2000, 1500, 2458, 2000, 1000]);
        // The page shows the board as conformed: its own revision follows the feed.
        await page.getByText(`revision ${before + 1}`, { exact: true }).waitFor();

        // The same file again changes nothing, and says so.
        await conform
          .getByLabel('Conform the board to a timeline file: OTIO, FCP 7 XML, FCPXML or EDL')
          .setInputFiles({ name: 'Harbour.xml', mimeType: 'application/xml', buffer: Buffer.from(edited) });
        await expect.poll(() => report.textContent()).toContain('Nothing changed');
        expect((await read()).revision).toBe(before + 1);

        // A file that is no timeline: the route's reason, nothing written.
        await conform.getByLabel('Conform the board to a timeline file: OTIO, FCP 7 XML, FCPXML or EDL').setInputFiles({
          name: 'notes.txt',
          mimeType: 'text/plain',
          buffer: Buffer.from('Call Mara about the boat.'),
        });
        const refusal = conform.getByRole('alert');
        await expect
          .poll(() => refusal.textContent())
          .toContain('Harbour was not conformed: notes.txt: The file is not a timeline');
        expect((await read()).revision).toBe(before + 1);
        expect(await seriousFindings(page)).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  });
});
