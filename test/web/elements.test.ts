import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, ElementList } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { FAL_KEY, startHostedStandIn, type HostedStandIn } from '../support/hosted-standins.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { readLayout } from '../support/canvas-reads.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * Elements in Chromium: an editor adds Mara to the project's elements with three reference photos picked from disk; the
 * shot list shows her in the shots whose cast names MARA; "Generate" on such a shot makes a generation card beside the
 * board whose run sends her three pictures to the image model (fal's stand-in), and the shot shows the picture that
 * came back. Axe finds nothing serious in the Elements panel.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('the web canvas: elements', () => {
  let server: TestServer;
  let browser: Browser;
  let standIn: HostedStandIn;
  let reader: string;

  beforeAll(async () => {
    standIn = await startHostedStandIn();
    server = await startTestServer(sqlite, {
      seedDemo: true,
      workers: 1,
      imageProvider: 'fal',
      falQueueUrl: standIn.falUrl,
      falKey: FAL_KEY,
      falImageModel: 'fal-ai/nano-banana/edit',
      providerPollMs: 20,
    });
    await server.store.projects.createCanvas('demo', 'cast', false);
    const board = CanvasNode.parse({
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: {
        title: 'Lighthouse',
        aspectRatio: '16:9',
        frames: [
          { id: 'a', imageUrl: null, number: '1', caption: 'The bay at dusk', shotSize: 'EWS' },
          { id: 'b', imageUrl: null, number: '2', caption: 'She lights the lamp', shotSize: 'CU', cast: ['MARA'] },
        ],
      },
    });
    await server.store.writes.createNode(
      { projectId: 'demo', canvasId: 'cast', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      board,
    );
    reader = await projectToken(server.store, 'demo', 'viewer');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await standIn?.close();
  });

  const read = () => readLayout(server, 'demo', 'cast', reader);

  it('adds Mara with three photos and generates her shot with them', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'cast',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('tab', { name: 'Elements' }).click();
      await page.getByLabel('Name').fill('Mara');
      await page.getByLabel('Notes').fill('Lighthouse keeper, 40s, grey coat');
      await page.getByRole('button', { name: 'Add element' }).click();
      await page.locator('.element[data-element="Mara"]').waitFor();

      const photos = await Promise.all(
        ['#b04030', '#3050b0', '#40a060'].map(async (colour, index) => ({
          name: `mara-${index + 1}.png`,
          mimeType: 'image/png',
          buffer: await sharp({ create: { width: 120, height: 160, channels: 3, background: colour } })
            .png()
            .toBuffer(),
        })),
      );
      await page.getByLabel('Reference pictures of Mara').setInputFiles(photos);
      await page.getByRole('img', { name: 'Mara, reference 3' }).waitFor();
      const { elements } = ElementList.parse(
        (await api(server.url, '/api/v1/projects/demo/elements', { token: reader })).body,
      );
      expect(elements).toMatchObject([
        { name: 'Mara', kind: 'character', notes: 'Lighthouse keeper, 40s, grey coat', references: [{}, {}, {}] },
      ]);
      expect(await seriousFindings(page)).toEqual([]);
      expect((await screenshot(page, 'elements')).inkRatio).toBeGreaterThan(0.02);

      await page.getByRole('button', { name: 'Shot list' }).click();
      await expect.poll(() => page.getByLabel('Elements of shot 2').textContent()).toBe('Mara');
      expect(await page.getByLabel('Elements of shot 1').textContent()).toBe('–');

      const before = (await read()).revision;
      await page.getByRole('button', { name: 'Generate a picture for shot 2' }).click();
      // One revision: the generation card beside the board, and the shot naming it as its source.
      const layout = await waitFor(read, (now) => now.revision > before);
      expect(layout.revision).toBe(before + 1);
      const shot = (
        layout.nodes.find((node) => node.id === 'board')!.data as { frames: Array<Record<string, unknown>> }
      ).frames[1]!;
      const card = layout.nodes.find((node) => node.id === shot.sourceNodeId)!;
      expect(card).toMatchObject({ type: 'imageGenNode' });
      expect((card.data as { prompt: string }).prompt).toBe('Close-up. She lights the lamp. With @Mara.');

      // The run sends her three pictures to the model, and the shot shows what came back.
      const sent = await waitFor(
        async () => standIn.requests.find((request) => request.line.startsWith('POST /fal/'))?.body,
        (body) => body !== undefined,
      );
      expect((sent as { image_urls: string[] }).image_urls).toHaveLength(3);
      await page.locator('.shot-table tr[data-shot-id="b"] img.shot-thumb').waitFor();
      await page.locator('.react-flow__node[data-id="board"] figure[data-shot-id="b"] img').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
