import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssets, type Assets } from '../../src/assets/assets.js';
import { createThumbnails } from '../../src/assets/thumbnails.js';
import { createBoardImages, type BoardImages, type CanvasRead } from '../../src/render/board-images.js';
import { parseBoardView } from '../../src/shared/board-target.js';
import { insertUploadRecords } from '../../src/store/asset-records.js';
import { openStore, sqliteFileIn, type Store } from '../../src/store/store.js';

/**
 * Framing guides on the board picture: a storyboard's contact sheet with `guides=` draws each guide at its fraction of
 * every shot's frame, checked by pixels with sharp: title safe 5 % in from the frame's edge, the 9:16 crop of a 16:9
 * frame 31.6 % of its width, centred; without `guides` there is none, and the two are cached apart.
 */

const REF = { projectId: 'p1', canvasId: 'c1' };
let dir: string;
let store: Store;
let assets: Assets;
let images: BoardImages;
const PICTURE = 'asset_guidepicture0001';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-guides-'));
  store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dir) });
  assets = createAssets({ dataDir: dir, store, storage: 'local' });
  images = createBoardImages({ store, thumbnails: createThumbnails({ store, assets }) });
  const bytes = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#333333' } })
    .png()
    .toBuffer();
  await assets.writer.put(PICTURE, Readable.from([bytes]), bytes.length);
  await store.driver.transaction((tx) =>
    insertUploadRecords(
      tx,
      [
        {
          id: PICTURE,
          projectId: REF.projectId,
          canvasId: REF.canvasId,
          kind: 'image',
          mimeType: 'image/png',
          byteSize: bytes.length,
          storage: 'local',
          storageKey: null,
          origin: { uploadedBy: { tokenId: 'test' }, fileName: 'grey.png' },
        },
      ],
      Date.now(),
    ),
  );
}, 60_000);

afterAll(async () => {
  await assets?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function canvas(aspectRatio: string): CanvasRead {
  const board = {
    id: 'board',
    type: 'storyboardNode',
    position: { x: 0, y: 0 },
    data: {
      displayName: 'Opening',
      aspectRatio,
      frames: ['s1', 's2'].map((id, index) => ({ id, number: String(index + 1), imageUrl: `/assets/${PICTURE}` })),
    },
  };
  return {
    revision: 1,
    statesVersion: 1,
    json: JSON.stringify({ layout: { revision: 1, nodes: [board], edges: [] } }),
  };
}

/** The picture's pixels and a test of one pixel's colour family. */
async function pixels(bytes: Buffer) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const offset = (y * info.width + x) * 3;
    return [data[offset]!, data[offset + 1]!, data[offset + 2]!] as const;
  };
  // Anti-aliased against the grey picture, a guide's pixel is still clearly its hue.
  const cyan = (x: number, y: number) => {
    const [r, g, b] = at(x, y);
    return g - r > 50 && b - r > 50;
  };
  const amber = (x: number, y: number) => {
    const [r, g, b] = at(x, y);
    return r - b > 80 && g - b > 40;
  };
  /** How many pixels of a column (x − 1 to x + 1, from `top` to `bottom`) are of the family. */
  const column = (test: (x: number, y: number) => boolean, x: number, top: number, bottom: number) => {
    let count = 0;
    for (let y = top; y <= bottom; y++) if ([x - 1, x, x + 1].some((each) => test(each, y))) count += 1;
    return count;
  };
  return { info, cyan, amber, column };
}

// The contact sheet's first shot (src/render/board-scene.ts): at (24, 64), 320 wide, drawn at 1:1 (a small sheet).
const LEFT = 24;
const TOP = 64;
const WIDTH = 320;

describe('guides on the board picture', () => {
  it('draws title safe 5 % in from each edge of a 16:9 frame, and nothing without guides', async () => {
    const height = WIDTH / (16 / 9);
    const bare = await images.render(REF, canvas('16:9'), parseBoardView(new URLSearchParams('node_id=board')));
    const guided = await images.render(
      REF,
      canvas('16:9'),
      parseBoardView(new URLSearchParams('node_id=board&guides=titleSafe')),
    );
    expect(guided.bytes.equals(bare.bytes)).toBe(false);
    const shown = await pixels(guided.bytes);
    const plain = await pixels(bare.bytes);
    const x = Math.round(LEFT + WIDTH * 0.05);
    const top = Math.round(TOP + height * 0.1);
    const bottom = Math.round(TOP + height * 0.9);
    // The left edge of title safe: cyan down most of its length (it is dashed), at 5 % of the width in.
    expect(shown.column(shown.cyan, x, top, bottom)).toBeGreaterThan((bottom - top) * 0.5);
    expect(plain.column(plain.cyan, x, top, bottom)).toBe(0);
    // Not at 3.5 % (action safe, not asked for), nor at 8 %.
    expect(shown.column(shown.cyan, Math.round(LEFT + WIDTH * 0.035) - 1, top, bottom)).toBe(0);
    expect(shown.column(shown.cyan, Math.round(LEFT + WIDTH * 0.08), top, bottom)).toBe(0);
    // Its top edge, 5 % of the height down.
    const y = Math.round(TOP + height * 0.05);
    let across = 0;
    for (let at = LEFT + 40; at < LEFT + WIDTH - 40; at++)
      if ([y - 1, y, y + 1].some((row) => shown.cyan(at, row))) across += 1;
    expect(across).toBeGreaterThan((WIDTH - 80) * 0.5);
  });

  it('draws the 9:16 crop of a 16:9 frame 31.6 % of its width, centred, and title safe on a 2.39:1 frame', async () => {
    const height = WIDTH / (16 / 9);
    const image = await images.render(
      REF,
      canvas('16:9'),
      parseBoardView(new URLSearchParams('node_id=board&guides=crop9x16')),
    );
    const shown = await pixels(image.bytes);
    const cropWidth = WIDTH * (9 / 16 / (16 / 9));
    const left = Math.round(LEFT + (WIDTH - cropWidth) / 2);
    const right = Math.round(LEFT + (WIDTH + cropWidth) / 2);
    // The columns of the frame drawn amber down most of its height: the crop's two sides, 31.6 % of 320 apart.
    const sides: number[] = [];
    for (let x = LEFT; x < LEFT + WIDTH; x++) {
      let count = 0;
      for (let y = TOP + 10; y < TOP + height - 10; y++) if (shown.amber(x, y)) count += 1;
      if (count > (height - 20) * 0.5) sides.push(x);
    }
    expect(sides.length).toBeGreaterThanOrEqual(2);
    expect(Math.abs(sides[0]! - left)).toBeLessThanOrEqual(1);
    expect(Math.abs(sides.at(-1)! - right)).toBeLessThanOrEqual(1);
    expect((sides.at(-1)! - sides[0]!) / WIDTH).toBeCloseTo(0.316, 1);
    expect(sides.every((x) => Math.abs(x - left) <= 1 || Math.abs(x - right) <= 1)).toBe(true);

    // Scope: the frame is 320 × 134, and title safe is still 5 % in.
    const scope = await pixels(
      (
        await images.render(
          REF,
          canvas('2.39:1'),
          parseBoardView(new URLSearchParams('node_id=board&guides=titleSafe')),
        )
      ).bytes,
    );
    const scopeHeight = Math.round(WIDTH / 2.39);
    const x = Math.round(LEFT + WIDTH * 0.05);
    const top = Math.round(TOP + scopeHeight * 0.1);
    const bottom = Math.round(TOP + scopeHeight * 0.9);
    expect(scope.column(scope.cyan, x, top, bottom)).toBeGreaterThan((bottom - top) * 0.5);
  });

  it('refuses guides on a view that is not a contact sheet, naming the field', async () => {
    const node = { id: 'note', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'Rain' } };
    const read = { revision: 1, json: JSON.stringify({ layout: { revision: 1, nodes: [node], edges: [] } }) };
    await expect(
      images.render(REF, read, parseBoardView(new URLSearchParams('node_id=note&guides=titleSafe'))),
    ).rejects.toMatchObject({ details: { field: 'guides' } });
  });
});
