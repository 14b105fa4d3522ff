import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { SqlDriver } from '../store/sql-driver.js';
import {
  AssetMissing,
  assetIdOfStagedName,
  type AssetLocation,
  type AssetStore,
  type ByteRange,
  type StagedAsset,
} from './asset-store.js';

/** `asset_` and 16 characters: the start of every storage key of this store. */
const ASSET_ID_LENGTH = 22;

/**
 * Assets as chunks in the database (`--asset-store postgres`; migration 008): any number of servers on one PostgreSQL
 * share every asset with nothing else to run. Bytes are written and read a chunk at a time, never whole in memory;
 * a range read fetches only the chunks it covers. A staged output is chunks under a key no `assets` row names yet:
 * the run's completing transaction names it, which publishes it.
 */

export const CHUNK_BYTES = 256 * 1024;
const DataRow = z.object({ data: z.instanceof(Uint8Array) });

export function createDatabaseAssetStore(driver: SqlDriver, clock: () => number = Date.now): AssetStore {
  async function writeChunks(storageKey: string, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
    await driver.transaction(async (tx) => {
      let seq = 0;
      for await (const chunk of chunks) {
        await tx.run('INSERT INTO asset_chunks (storage_key, seq, data, created_at) VALUES (?, ?, ?, ?)', [
          storageKey,
          seq,
          chunk,
          clock(),
        ]);
        seq += 1;
      }
    });
  }

  function* sliced(bytes: Buffer): Iterable<Buffer> {
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
    if (bytes.length === 0) yield Buffer.alloc(0);
  }

  /** Re-cuts a stream of any piece sizes into chunks of CHUNK_BYTES. */
  async function* rechunked(source: Readable): AsyncIterable<Buffer> {
    let pending: Buffer[] = [];
    let size = 0;
    for await (const piece of source) {
      const buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
      pending.push(buffer);
      size += buffer.length;
      while (size >= CHUNK_BYTES) {
        const joined = Buffer.concat(pending);
        yield joined.subarray(0, CHUNK_BYTES);
        pending = [joined.subarray(CHUNK_BYTES)];
        size = pending[0]!.length;
      }
    }
    if (size > 0) yield Buffer.concat(pending);
  }

  async function chunk(storageKey: string, seq: number): Promise<Buffer | undefined> {
    const row = await driver.get('SELECT data FROM asset_chunks WHERE storage_key = ? AND seq = ?', [storageKey, seq]);
    return row ? Buffer.from(DataRow.parse(row).data) : undefined;
  }

  return {
    storage: 'postgres',

    async stage(assetId, attempt, bytes): Promise<StagedAsset> {
      const storageKey = `${assetId}.${attempt}.${randomBytes(4).toString('hex')}`;
      await writeChunks(storageKey, sliced(bytes));
      return { assetId, storage: 'postgres', storageKey };
    },

    publish() {
      // The completing transaction records the storage key in the asset's row: that is the publication.
    },

    async discard(staged) {
      for (const asset of staged)
        await driver.run('DELETE FROM asset_chunks WHERE storage_key = ?', [asset.storageKey]);
    },

    async sweepStaged(before, known) {
      // Keys start with their asset id (22 characters): only chunks of assets without a row, found by the primary key.
      const keys = (
        await driver.all(
          `SELECT c.storage_key FROM asset_chunks c
           WHERE c.seq = 0 AND c.created_at < ? AND NOT EXISTS (SELECT 1 FROM assets a WHERE a.id = substr(c.storage_key, 1, ${ASSET_ID_LENGTH}))`,
          [before],
        )
      ).map((row) => z.object({ storage_key: z.string() }).parse(row).storage_key);
      const assetIds = keys.map(assetIdOfStagedName).filter((id): id is string => id !== null);
      const withRows = await known(assetIds);
      let removed = 0;
      for (const key of keys) {
        const assetId = assetIdOfStagedName(key);
        if (assetId === null || withRows.has(assetId)) continue;
        await driver.run('DELETE FROM asset_chunks WHERE storage_key = ?', [key]);
        removed += 1;
      }
      return removed;
    },

    async open(location: AssetLocation, range?: ByteRange) {
      const key = location.storageKey;
      if (!key) throw new AssetMissing(location.assetId);
      const start = range?.start ?? 0;
      const end = range?.end ?? location.byteSize - 1;
      const first = Math.floor(start / CHUNK_BYTES);
      const last = Math.floor(Math.max(end, 0) / CHUNK_BYTES);
      if ((await chunk(key, first)) === undefined) throw new AssetMissing(location.assetId);
      async function* pieces() {
        for (let seq = first; seq <= last; seq += 1) {
          const data = await chunk(key!, seq);
          if (!data) throw new AssetMissing(location.assetId);
          const from = seq === first ? start - seq * CHUNK_BYTES : 0;
          const to = seq === last ? end - seq * CHUNK_BYTES + 1 : data.length;
          yield data.subarray(from, to);
        }
      }
      return Readable.from(pieces());
    },

    async directUrl() {
      return null;
    },

    async put(assetId, bytes) {
      const storageKey = `${assetId}.put.${randomBytes(4).toString('hex')}`;
      await writeChunks(storageKey, rechunked(bytes));
      return storageKey;
    },

    async remove(location) {
      if (location.storageKey)
        await driver.run('DELETE FROM asset_chunks WHERE storage_key = ?', [location.storageKey]);
    },

    async close() {},
  };
}
