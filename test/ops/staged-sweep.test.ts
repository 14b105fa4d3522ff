import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetLocation, AssetStore } from '../../src/assets/asset-store.js';
import { createDatabaseAssetStore } from '../../src/assets/database-store.js';
import { createLocalAssetStore } from '../../src/assets/local-store.js';
import { createS3AssetStore } from '../../src/assets/s3-store.js';
import type { Store } from '../../src/store/store.js';
import { startS3Standin, type S3Standin } from '../support/s3-standin.js';
import { canvasWithFinishedImage } from '../support/finished-image.js';
import { startTestServer } from '../support/servers.js';
import { openTestStore, STORE_TARGETS } from '../support/stores.js';

/**
 * Outputs left staged by a process that died between staging a run's outputs and completing the run (a SIGKILL, a
 * power cut) are removed by the run engine's sweep, in each of the three asset stores: only those older than any run
 * can take, and never bytes of an asset that has a row. The S3 store is tested against s3rver, a local stand-in.
 */

const ORPHAN = 'asset_OOOOOOOOOOOOOOOO';
const KEPT = 'asset_KKKKKKKKKKKKKKKK';
const bytes = Buffer.from('staged output');

let s3: S3Standin;
let database: { store: Store; close(): Promise<void> } | undefined;
const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-sweep-'));
beforeAll(async () => {
  s3 = await startS3Standin();
  if (STORE_TARGETS[1]!.available) database = await openTestStore(STORE_TARGETS[1]!);
});
afterAll(async () => {
  await s3?.close();
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

// The database store needs the PostgreSQL at 127.0.0.1:5432 (required in CI); the other two run everywhere.
const stores: Array<[string, boolean, () => AssetStore]> = [
  ['local', true, () => createLocalAssetStore(join(dir, 'local'))],
  ['postgres', STORE_TARGETS[1]!.available, () => createDatabaseAssetStore(database!.store.driver)],
  ['s3', true, () => createS3AssetStore(s3.client, s3.bucket, 'sweep/')],
];

async function readAll(assets: AssetStore, location: AssetLocation): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await assets.open(location)) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe.each(stores)('sweeping staged outputs: %s', (_name, available, make) => {
  it.skipIf(!available)(
    'removes an old staged output of an asset without a row, keeps one with a row, and leaves young ones alone',
    async () => {
      const assets = make();
      const orphan = await assets.stage(ORPHAN, 'run_dead.1', bytes);
      const kept = await assets.stage(KEPT, 'run_done.1', bytes);
      assets.publish([kept]);
      // The asset ids with a row: the kept one (its row may name another store: a copy kept by a migration stays too).
      const known = async (assetIds: readonly string[]) => new Set(assetIds.filter((assetId) => assetId === KEPT));
      const location = (assetId: string, storageKey: string | null): AssetLocation => ({
        assetId,
        storage: assets.storage,
        storageKey,
        byteSize: bytes.length,
        mimeType: 'text/plain',
      });
      // Where the orphan's bytes are: a file in the staging directory, else under its staged key.
      const orphanThere = async () =>
        assets.storage === 'local'
          ? existsSync(join(dir, 'local', 'assets', orphan.storageKey))
          : readAll(assets, location(ORPHAN, orphan.storageKey)).then(
              () => true,
              () => false,
            );

      // Written just now: younger than the cut-off, so a run may still be completing them.
      expect(await assets.sweepStaged(Date.now() - 60_000, known)).toBe(0);
      expect(await orphanThere()).toBe(true);

      expect(await assets.sweepStaged(Date.now() + 60_000, known)).toBe(1);
      expect(await orphanThere()).toBe(false);
      expect(await readAll(assets, location(KEPT, assets.storage === 'local' ? null : kept.storageKey))).toEqual(bytes);
      expect(await assets.sweepStaged(Date.now() + 60_000, known)).toBe(0);
      await assets.close();
    },
  );
});

describe('sweeping files put in place whose row never committed: local', () => {
  it('removes an old file of an asset without a row (an upload cut off between its put and its transaction), and keeps the rest', async () => {
    const assets = createLocalAssetStore(join(dir, 'placed'));
    const orphan = 'asset_PPPPPPPPPPPPPPPP';
    const young = 'asset_YYYYYYYYYYYYYYYY';
    for (const assetId of [orphan, KEPT, young]) await assets.put(assetId, Readable.from([bytes]), bytes.length);
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const assetId of [orphan, KEPT]) utimesSync(join(dir, 'placed', 'assets', assetId), hourAgo, hourAgo);
    const known = async (assetIds: readonly string[]) => new Set(assetIds.filter((assetId) => assetId === KEPT));
    expect(await assets.sweepStaged(Date.now() - 60_000, known)).toBe(1);
    expect(existsSync(join(dir, 'placed', 'assets', orphan))).toBe(false);
    expect(existsSync(join(dir, 'placed', 'assets', KEPT))).toBe(true);
    expect(existsSync(join(dir, 'placed', 'assets', young))).toBe(true);
    await assets.close();
  });
});

describe('which assets have a row (what the engine asks before a sweep removes anything)', () => {
  it('answers the ids of assets that exist, in one query per 500', async () => {
    const server = await startTestServer(STORE_TARGETS[0]!, { workers: 1, runDurationMs: 0 });
    try {
      const { run } = await canvasWithFinishedImage(server);
      const real = run.outputs[0]!.asset_id;
      const many = [real, ...Array.from({ length: 600 }, (_, index) => `asset_${String(index).padStart(16, 'X')}`)];
      expect([...(await server.store.assets.knownAssetIds(many))]).toEqual([real]);
    } finally {
      await server.close();
    }
  });
});
