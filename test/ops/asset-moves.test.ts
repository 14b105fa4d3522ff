import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Assets } from '../../src/assets/assets.js';
import type { AssetStore } from '../../src/assets/asset-store.js';
import { createLocalAssetStore } from '../../src/assets/local-store.js';
import { moveAssets } from '../../src/ops/asset-moves.js';
import { openTestStore, STORE_TARGETS } from '../support/stores.js';
import type { Store } from '../../src/store/store.js';

/**
 * moveAssets against a destination that is slow to start reading (as the database store is while it takes a pooled
 * connection): every byte must still arrive. A regression test: the copy's hash tap once put the stream in flowing
 * mode, and bytes emitted before the destination read were lost.
 */

describe('moveAssets', () => {
  let dir: string;
  let store: Store;
  let closeStore: () => Promise<void>;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-moves-'));
    ({ store, close: closeStore } = await openTestStore(STORE_TARGETS[0]!));
  });
  afterEach(async () => {
    await closeStore();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies every byte to a destination that starts reading late, and verifies it', async () => {
    const source = createLocalAssetStore(join(dir, 'source'));
    const landing = createLocalAssetStore(join(dir, 'landing'));
    const bytes = Buffer.alloc(300_000, 7);
    const assetId = 'asset_AAAAAAAAAAAAAAAA';
    await source.put(assetId, Readable.from([bytes]), bytes.length);
    await store.projects.createWorkspace('w');
    await store.projects.createProject('p', 'w');
    await store.projects.createCanvas('p', 'c', false);
    // An asset row as a finished run leaves it (its run is beside the point here).
    await store.driver.exec('PRAGMA foreign_keys = OFF');
    await store.driver.run(
      "INSERT INTO assets (id, project_id, canvas_id, run_id, kind, mime_type, byte_size, storage, storage_key, created_at) VALUES (?, 'p', 'c', 'run_x', 'image', 'image/png', ?, 'local', NULL, 0)",
      [assetId, bytes.length],
    );
    await store.driver.exec('PRAGMA foreign_keys = ON');
    // The destination stands for another store: it waits before it reads, as a store that first takes a connection.
    const slow: AssetStore = {
      ...landing,
      storage: 's3',
      async put(id, stream, size) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return landing.put(id, stream, size);
      },
      open: (location, range) => landing.open({ ...location, storage: 'local' }, range),
    };
    const assets: Assets = {
      writer: slow,
      reader: (storage) => (storage === 'local' ? source : storage === 's3' ? slow : null),
      inputFile: async () => null,
      bytesOf: async () => null,
      close: async () => undefined,
    };
    const report = await moveAssets(store, assets);
    expect(report).toMatchObject({ moved: 1, bytes: bytes.length, failures: [] });
    expect(report.destinationChecksum).toBe(report.sourceChecksum);
  });
});
