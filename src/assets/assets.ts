import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Store } from '../store/store.js';
import type { AssetStorage } from '../store/records.js';
import { AssetMissing, type AssetLocation, type AssetStore } from './asset-store.js';
import { createDatabaseAssetStore } from './database-store.js';
import { createLocalAssetStore } from './local-store.js';

/**
 * The asset stores of this process: the one new run outputs go to (`--asset-store`), and every one it can read from,
 * since an asset is read where its row says it is (assets written before a migration stay readable).
 */
export interface Assets {
  /** Where this process writes new outputs. */
  readonly writer: AssetStore;
  /** The store that holds assets of this kind here, or null when this process cannot reach it. */
  reader(storage: AssetStorage): AssetStore | null;
  /**
   * A local file with the asset's bytes, for providers that read earlier outputs with a tool (ffmpeg): the file itself
   * for a local asset, else a private temporary copy that `release` removes. Null when the asset is nowhere here.
   */
  inputFile(assetId: string): Promise<{ path: string; release(): Promise<void> } | null>;
  /** A small asset's bytes, whole (a thumbnail, a drawing's strokes); null when it is nowhere this process can reach. */
  bytesOf(location: AssetLocation): Promise<Buffer | null>;
  close(): Promise<void>;
}

export interface AssetStoresOptions {
  dataDir: string;
  store: Store;
  storage: AssetStorage;
  /** The S3 store, when configured (src/assets/s3-store.ts). */
  s3?: AssetStore | null;
}

export function createAssets(options: AssetStoresOptions): Assets {
  const local = createLocalAssetStore(options.dataDir);
  const database = options.store.dialect === 'postgres' ? createDatabaseAssetStore(options.store.driver) : null;
  const s3 = options.s3 ?? null;
  const readers: Record<AssetStorage, AssetStore | null> = { local, postgres: database, s3 };
  const writer = readers[options.storage];
  if (!writer) {
    throw new Error(
      options.storage === 'postgres'
        ? '--asset-store postgres keeps assets in the database: it needs --database-url (PostgreSQL).'
        : '--asset-store s3 needs --s3-bucket (and the S3 settings of docs/operations.md).',
    );
  }
  return {
    writer,
    reader: (storage) => readers[storage],
    async inputFile(assetId) {
      const record = await options.store.assets.getAsset(assetId);
      if (!record) return null;
      if (record.storage === 'local') {
        try {
          await local.open(record);
          return { path: local.pathOf(assetId), release: async () => undefined };
        } catch (error) {
          if (error instanceof AssetMissing) return null;
          throw error;
        }
      }
      const reader = readers[record.storage];
      if (!reader) return null;
      const dir = await mkdtemp(join(options.dataDir, 'assets', '.staging', 'input-'));
      const path = join(dir, assetId);
      try {
        await pipeline(await reader.open(record as AssetLocation), createWriteStream(path, { mode: 0o600 }));
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        if (error instanceof AssetMissing) return null;
        throw error;
      }
      return { path, release: () => rm(dir, { recursive: true, force: true }) };
    },
    async bytesOf(location) {
      const reader = readers[location.storage];
      if (!reader) return null;
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of await reader.open(location))
          chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
        return Buffer.concat(chunks);
      } catch (error) {
        if (error instanceof AssetMissing) return null;
        throw error;
      }
    },
    async close() {
      await s3?.close();
    },
  };
}
