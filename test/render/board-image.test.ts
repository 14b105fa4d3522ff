import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssets, type Assets } from '../../src/assets/assets.js';
import { createThumbnails, RESULT_THUMBNAIL_EDGE, thumbnailIdOf } from '../../src/assets/thumbnails.js';
import { createBoardImages, type BoardImages, type CanvasRead } from '../../src/render/board-images.js';
import { MAX_BYTES, MAX_EDGE } from '../../src/render/rasterise.js';
import { parseBoardView } from '../../src/shared/board-target.js';
import { insertUploadRecords } from '../../src/store/asset-records.js';
import { openStore, sqliteFileIn, type Store } from '../../src/store/store.js';

/**
 * The board as a picture, drawn from real PNG assets kept in a real asset store: a storyboard's contact sheet and a
 * canvas of mixed nodes decode as PNGs within the budget, are not blank, and a second read of the same revision is
 * answered from the cache; a 200-node canvas stays within the budget too.
 */

const REF = { projectId: 'p1', canvasId: 'c1' };
const HUES = ['#d62828', '#f77f00', '#fcbf49', '#2a9d8f', '#264653', '#8338ec', '#3a86ff', '#ff006e', '#06d6a0'];

let dir: string;
let store: Store;
let assets: Assets;
let images: BoardImages;
const pictures: string[] = [];

/** A large picture (2,400 × 1,350) of one colour with grain: what a run's output weighs, not a stand-in pixel. */
async function keepPicture(index: number): Promise<string> {
  const bytes = await sharp({
    create: { width: 2400, height: 1350, channels: 3, background: HUES[index % HUES.length]!, noise: undefined },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1350"><circle cx="${600 + index * 100}" cy="675" r="400" fill="#ffffff" fill-opacity="0.6"/></svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();
  const id = `asset_picture${String(index).padStart(9, '0')}`;
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
          origin: { uploadedBy: { tokenId: 'test' }, fileName: `${id}.png` },
        },
      ],
      Date.now(),
    ),
  );
  return id;
}

const signed = (assetId: string) => `/assets/${assetId}?exp=9999999999&sig=abc`;

function read(
  revision: number,
  nodes: unknown[],
  edges: unknown[] = [],
  states: Record<string, unknown> = {},
): CanvasRead {
  return {
    revision,
    statesVersion: 1,
    json: JSON.stringify({ layout: { revision, nodes, edges }, node_states: states }),
  };
}

function storyboard(shots: number) {
  return {
    id: 'board',
    type: 'storyboardNode',
    position: { x: 0, y: 0 },
    data: {
      displayName: 'Opening',
      aspectRatio: '16:9',
      frames: Array.from({ length: shots }, (_, index) => ({
        id: `s${index}`,
        number: String(index + 1),
        imageUrl: signed(pictures[index % pictures.length]!),
        caption: `Shot ${index + 1}: Mara crosses the yard in the rain`,
      })),
    },
  };
}

async function decoded(bytes: Buffer) {
  const metadata = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const colours = new Set<number>();
  for (let at = 0; at < data.length; at += info.channels * 7)
    colours.add((data[at]! << 16) | (data[at + 1]! << 8) | data[at + 2]!);
  return { metadata, colours: colours.size };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-render-'));
  store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dir) });
  assets = createAssets({ dataDir: dir, store, storage: 'local' });
  images = createBoardImages({ store, thumbnails: createThumbnails({ store, assets }) });
  for (let index = 0; index < 9; index += 1) pictures.push(await keepPicture(index));
}, 60_000);

afterAll(async () => {
  await assets?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('board pictures', () => {
  it('draws a 12-shot storyboard as a contact sheet within the budget, then answers it from the cache', async () => {
    const canvas = read(3, [storyboard(12)]);
    const view = parseBoardView(new URLSearchParams('node_id=board'));
    const before = images.renders;
    const image = await images.render(REF, canvas, view);
    expect(images.renders).toBe(before + 1);
    expect(image.mimeType).toBe('image/png');
    expect(image.bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(image.bytes.length).toBeLessThanOrEqual(MAX_BYTES);
    const { metadata, colours } = await decoded(image.bytes);
    expect(metadata.format).toBe('png');
    expect(Math.max(metadata.width!, metadata.height!)).toBeLessThanOrEqual(MAX_EDGE);
    expect(colours).toBeGreaterThan(50);
    // The first shot's number badge (4 columns of 320 + 24: drawn at 1:1) is not one flat colour.
    const badge = await sharp(image.bytes).extract({ left: 30, top: 70, width: 40, height: 34 }).stats();
    expect(Math.max(...badge.channels.map((channel) => channel.stdev))).toBeGreaterThan(20);
    // Thumbnails were made once and kept as assets of their own (≤ 480 px), not the originals embedded.
    const thumbnail = await store.assets.getAsset(thumbnailIdOf(pictures[0]!));
    expect(thumbnail?.mimeType).toBe('image/webp');
    expect(thumbnail?.projectId).toBe(REF.projectId);

    const again = await images.render(REF, canvas, view);
    expect(images.renders).toBe(before + 1);
    expect(again.bytes).toBe(image.bytes);
    // A new revision is drawn again.
    await images.render(REF, read(4, [storyboard(12)]), view);
    expect(images.renders).toBe(before + 2);
  }, 60_000);

  it('draws a canvas of mixed nodes (pictures, a generator, a group, notes, a board, edges)', async () => {
    const nodes = [
      {
        id: 'img',
        type: 'imageNode',
        position: { x: 0, y: 0 },
        data: { displayName: 'Yard', imageUrl: signed(pictures[1]!), prompt: '', size: '1K', aspectRatio: '16:9' },
      },
      {
        id: 'gen',
        type: 'imageGenNode',
        position: { x: 400, y: 0 },
        data: { prompt: 'Mara at the gate', size: '1K', imageUrl: null, aspectRatio: '1:1' },
      },
      { id: 'group', type: 'groupNode', position: { x: 0, y: 400 }, width: 760, height: 360, data: { label: 'Props' } },
      {
        id: 'note',
        type: 'textAnnotationNode',
        parentId: 'group',
        position: { x: 40, y: 80 },
        data: { content: 'Umbrella, red' },
      },
      {
        id: 'script',
        type: 'scriptNode',
        parentId: 'group',
        position: { x: 400, y: 80 },
        data: { displayName: 'Scene 4', prompt: '' },
      },
      { id: 'sound', type: 'audioNode', position: { x: 900, y: 0 }, data: { displayName: 'Rain', audioUrl: null } },
      { ...storyboard(5), position: { x: 1300, y: 0 } },
    ];
    const edges = [
      { id: 'e1', source: 'img', target: 'gen' },
      { id: 'e2', source: 'gen', target: 'board' },
    ];
    const states = {
      gen: { outputs: [{ asset_id: pictures[2], kind: 'image', url: signed(pictures[2]!), mime_type: 'image/png' }] },
    };
    const image = await images.render(REF, read(7, nodes, edges, states), parseBoardView(new URLSearchParams()));
    const { metadata, colours } = await decoded(image.bytes);
    expect(metadata.format).toBe('png');
    expect(Math.max(metadata.width!, metadata.height!)).toBeLessThanOrEqual(MAX_EDGE);
    expect(image.bytes.length).toBeLessThanOrEqual(MAX_BYTES);
    expect(colours).toBeGreaterThan(100);

    // A region, a group and WebP.
    const region = await images.render(
      REF,
      read(7, nodes, edges, states),
      parseBoardView(new URLSearchParams('x=0&y=0&width=800&height=400&format=webp')),
    );
    expect(region.mimeType).toBe('image/webp');
    expect((await sharp(region.bytes).metadata()).format).toBe('webp');
    const group = await images.render(
      REF,
      read(7, nodes, edges, states),
      parseBoardView(new URLSearchParams('node_id=group')),
    );
    expect((await sharp(group.bytes).metadata()).width).toBeLessThanOrEqual(MAX_EDGE);
  }, 60_000);

  it("never embeds another project's picture", async () => {
    const stranger = await keepPicture(20);
    await store.driver.run('UPDATE assets SET project_id = ? WHERE id = ?', ['p2', stranger]);
    const nodes = [
      {
        id: 'img',
        type: 'imageNode',
        position: { x: 0, y: 0 },
        data: { imageUrl: signed(stranger), prompt: '', size: '1K', aspectRatio: '1:1' },
      },
    ];
    await images.render(REF, read(9, nodes), parseBoardView(new URLSearchParams()));
    expect(await store.assets.getAsset(thumbnailIdOf(stranger))).toBeUndefined();
  }, 30_000);

  it('draws a 200-node canvas within the budget', async () => {
    const nodes = Array.from({ length: 200 }, (_, index) => ({
      id: `n${index}`,
      type: index % 3 === 0 ? 'textAnnotationNode' : 'imageNode',
      position: { x: (index % 20) * 340, y: Math.floor(index / 20) * 260 },
      data:
        index % 3 === 0
          ? { content: `note ${index}` }
          : {
              displayName: `Frame ${index}`,
              imageUrl: signed(pictures[index % pictures.length]!),
              prompt: '',
              size: '1K',
              aspectRatio: '4:3',
            },
    }));
    const edges = Array.from({ length: 100 }, (_, index) => ({
      id: `e${index}`,
      source: `n${index}`,
      target: `n${index + 1}`,
    }));
    const started = performance.now();
    const image = await images.render(REF, read(11, nodes, edges), parseBoardView(new URLSearchParams()));
    const elapsed = performance.now() - started;
    const { metadata, colours } = await decoded(image.bytes);
    expect(Math.max(metadata.width!, metadata.height!)).toBeLessThanOrEqual(MAX_EDGE);
    expect(image.bytes.length).toBeLessThanOrEqual(MAX_BYTES);
    expect(colours).toBeGreaterThan(50);
    expect(elapsed).toBeLessThan(20_000);
  }, 60_000);

  it('keeps thumbnails within 480 px', async () => {
    const thumbnails = createThumbnails({ store, assets });
    const thumbnail = await thumbnails.of((await store.assets.getAsset(pictures[3]!))!);
    const metadata = await sharp(thumbnail!.bytes).metadata();
    expect(Math.max(metadata.width!, metadata.height!)).toBe(RESULT_THUMBNAIL_EDGE);
    expect(thumbnail!.bytes.length).toBeLessThan(60_000);
  });
});
