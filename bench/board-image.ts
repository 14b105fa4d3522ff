import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { createAssets } from '../src/assets/assets.js';
import { createThumbnails } from '../src/assets/thumbnails.js';
import { createBoardImages, type CanvasRead } from '../src/render/board-images.js';
import { insertUploadRecords } from '../src/store/asset-records.js';
import { openStore, sqliteFileIn } from '../src/store/store.js';

/**
 * `npm run bench` (part): the board as a picture, in process, on a real store and asset store. A canvas of 200 nodes
 * (two in three an image card, 40 distinct 2,400 × 1,350 PNG pictures, 100 edges) drawn as PNG:
 * - first: the pictures have no thumbnails yet (each made from its original and kept);
 * - cold: thumbnails kept, nothing drawn yet (a new revision);
 * - cached: the same revision read again.
 */

const ROUNDS = Number(process.env.BENCH_BOARD_ROUNDS ?? 7);
const PICTURES = 40;
const REF = { projectId: 'p', canvasId: 'c' };

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

export async function measureBoardImage() {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-board-'));
  const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dir) });
  const assets = createAssets({ dataDir: dir, store, storage: 'local' });
  try {
    const ids: string[] = [];
    for (let index = 0; index < PICTURES; index += 1) {
      const id = `asset_benchpicture${String(index).padStart(4, '0')}`;
      const bytes = await sharp({
        create: {
          width: 2400,
          height: 1350,
          channels: 3,
          background: { r: (index * 53) % 256, g: (index * 97) % 256, b: 140 },
        },
      })
        .composite([
          {
            input: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1350"><circle cx="${300 + index * 45}" cy="600" r="420" fill="#fff" fill-opacity="0.5"/></svg>`,
            ),
          },
        ])
        .png()
        .toBuffer();
      await assets.writer.put(id, Readable.from([bytes]), bytes.length);
      await store.driver.transaction((tx) =>
        insertUploadRecords(
          tx,
          [
            {
              id,
              projectId: REF.projectId,
              canvasId: REF.canvasId,
              kind: 'image',
              mimeType: 'image/png',
              byteSize: bytes.length,
              storage: 'local',
              storageKey: null,
              origin: { uploadedBy: { tokenId: 'bench' }, fileName: `${id}.png` },
            },
          ],
          Date.now(),
        ),
      );
      ids.push(id);
    }
    const nodes = Array.from({ length: 200 }, (_, index) => ({
      id: `n${index}`,
      type: index % 3 === 0 ? 'textAnnotationNode' : 'imageNode',
      position: { x: (index % 20) * 340, y: Math.floor(index / 20) * 260 },
      data:
        index % 3 === 0
          ? { content: `note ${index}` }
          : {
              displayName: `Frame ${index}`,
              imageUrl: `/assets/${ids[index % PICTURES]}`,
              prompt: '',
              size: '1K',
              aspectRatio: '16:9',
            },
    }));
    const edges = Array.from({ length: 100 }, (_, index) => ({
      id: `e${index}`,
      source: `n${index}`,
      target: `n${index + 1}`,
    }));
    const read = (revision: number): CanvasRead => ({
      revision,
      statesVersion: 0,
      json: JSON.stringify({ layout: { revision, nodes, edges }, node_states: {} }),
    });
    const images = createBoardImages({ store, thumbnails: createThumbnails({ store, assets }) });
    const view = { target: { kind: 'canvas' as const }, format: 'png' as const };
    let started = performance.now();
    const first = await images.render(REF, read(1), view);
    const firstMs = performance.now() - started;
    const cold: number[] = [];
    const cached: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      started = performance.now();
      await images.render(REF, read(round + 2), view);
      cold.push(performance.now() - started);
      started = performance.now();
      await images.render(REF, read(round + 2), view);
      cached.push(performance.now() - started);
    }
    const webp = await images.render(REF, read(2), { ...view, format: 'webp' });
    const metadata = await sharp(first.bytes).metadata();
    return {
      firstMs,
      cold,
      cached,
      bytes: first.bytes.length,
      webpBytes: webp.bytes.length,
      width: metadata.width!,
      height: metadata.height!,
    };
  } finally {
    await assets.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureBoardImage();
  const lines = [
    '| 200-node board as PNG | ms |',
    '|---|---:|',
    `| first (40 thumbnails made from their originals, then drawn) | ${figures.firstMs.toFixed(0)} |`,
    `| cold: thumbnails kept, new revision (median of ${ROUNDS}) | ${median(figures.cold).toFixed(0)} |`,
    `| cached: same revision again (median of ${ROUNDS}) | ${median(figures.cached).toFixed(2)} |`,
  ];
  process.stdout.write(
    `\nboard image (${figures.width} × ${figures.height}, PNG ${(figures.bytes / 1024).toFixed(0)} KB, WebP ${(figures.webpBytes / 1024).toFixed(0)} KB):\n${lines.join('\n')}\n`,
  );
}
