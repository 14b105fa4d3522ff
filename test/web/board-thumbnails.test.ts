import { Readable } from 'node:stream';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAssetStore } from '../../src/assets/local-store.js';
import { CanvasNode } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { insertUploadRecords } from '../../src/store/asset-records.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { card, launchBrowser, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * A board of large pictures shows thumbnails, in real Chromium: the image cards and the storyboard's frames draw
 * `/assets/<id>/thumbnail` (signed like the picture), the page never fetches an original, and what it fetches is small.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
const PICTURES = ['asset_largepicture0001', 'asset_largepicture0002', 'asset_largepicture0003'];

describe('the web canvas: thumbnails of large pictures', () => {
  let server: TestServer;
  let browser: Browser;
  const originals = new Map<string, number>();

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    browser = await launchBrowser();
    const { store } = server;
    await store.projects.createCanvas('demo', 'pictures', false);
    for (const [index, id] of PICTURES.entries()) {
      // 3,000 × 2,000 of grain: several megabytes each, as a photograph weighs.
      const bytes = await sharp({
        create: {
          width: 3000,
          height: 2000,
          channels: 3,
          background: ['#b5179e', '#4361ee', '#f77f00'][index]!,
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .png({ compressionLevel: 1 })
        .toBuffer();
      originals.set(id, bytes.length);
      await createLocalAssetStore(server.dataDir).put(id, Readable.from([bytes]), bytes.length);
      await store.driver.transaction((tx) =>
        insertUploadRecords(
          tx,
          [
            {
              id,
              projectId: 'demo',
              canvasId: 'pictures',
              kind: 'image',
              mimeType: 'image/png',
              byteSize: bytes.length,
              storage: 'local',
              storageKey: null,
              origin: { uploadedBy: { tokenId: 'test' }, fileName: `${id}.png` },
            },
          ],
          Date.now(),
        ),
      );
    }
    const nodes = [
      ...PICTURES.map((id, index) => ({
        id: `still-${index}`,
        type: 'imageNode',
        position: { x: index * 340, y: 0 },
        data: { displayName: `Still ${index}`, imageUrl: `/assets/${id}`, prompt: '', size: '1K', aspectRatio: '3:2' },
      })),
      {
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 320 },
        data: {
          displayName: 'Board',
          frames: PICTURES.map((id, index) => ({
            id: `s${index}`,
            imageUrl: `/assets/${id}`,
            caption: `Shot ${index}`,
          })),
        },
      },
    ];
    const revision = (await store.layout.readCanvas('demo', 'pictures'))!.revision;
    await store.writes.applyBatch(
      {
        projectId: 'demo',
        canvasId: 'pictures',
        baseRevision: revision,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      },
      nodes.map((node) => ({ op: 'create_node' as const, node: CanvasNode.parse(node) })),
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws thumbnails on the cards and the frames, and never downloads an original', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'pictures',
    });
    const fetched: Array<{ url: string; bytes: number }> = [];
    page.on('response', (response) => {
      if (!response.url().includes('/assets/')) return;
      void response
        .body()
        .then((body) => fetched.push({ url: response.url(), bytes: body.length }))
        .catch(() => undefined);
    });
    try {
      await page.locator('.feed-live').waitFor();
      const still = card(page, 'still-0').locator('img').first();
      await still.waitFor({ timeout: 15_000 });
      const frame = card(page, 'board').locator('img').first();
      await frame.waitFor({ timeout: 15_000 });
      for (const image of [still, frame]) {
        const shown = await image.evaluate(async (element) => {
          const img = element as unknown as {
            decode(): Promise<void>;
            naturalWidth: number;
            getAttribute(name: string): string | null;
          };
          await img.decode();
          return { width: img.naturalWidth, src: img.getAttribute('src') ?? '' };
        });
        expect(shown.src).toMatch(/\/assets\/asset_[A-Za-z0-9_-]{16}\/thumbnail\?exp=\d+&sig=/);
        expect(shown.width).toBeGreaterThan(0);
        expect(shown.width).toBeLessThanOrEqual(480);
      }
      // The pictures on screen were decoded above, so their fetches have been answered (a body read after it).
      await expect.poll(() => fetched.length).toBeGreaterThan(0);
      for (const response of fetched) {
        expect(response.url).toMatch(/\/thumbnail\?/);
        expect(response.bytes).toBeLessThan(100_000);
      }
      const largest = Math.min(...originals.values());
      expect(largest).toBeGreaterThan(5_000_000);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
