import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Assets } from '../assets/assets.js';
import type { AssetLocation, AssetStore } from '../assets/asset-store.js';
import type { Store } from '../store/store.js';

/**
 * `admin assets migrate --to local|postgres|s3` (docs/operations.md, "Asset storage"): copies every asset kept
 * elsewhere into one store, one at a time and streamed. Each copy is read back from where it landed and must hash the
 * same (SHA-256) and have the recorded size before its row is pointed at it; only then is the old copy removed.
 * Servers keep serving throughout: a row names either the old copy or the verified new one. The run reports how many
 * assets moved and one checksum over all of them, the same from the source's bytes and from the destination's.
 */

export interface MoveProgress {
  done: number;
  total: number;
  bytes: number;
}

export interface MoveFailure {
  assetId: string;
  reason: string;
}

export interface MoveReport {
  to: AssetStore['storage'];
  /** Assets in the store at the start. */
  total: number;
  moved: number;
  /** Already in the destination. */
  alreadyThere: number;
  bytes: number;
  /** SHA-256 over "<asset_id> <sha256 of its bytes>\n" of the moved assets in id order, from the source's bytes. */
  sourceChecksum: string;
  /** The same, from the bytes read back from the destination. */
  destinationChecksum: string;
  failures: MoveFailure[];
}

export interface MoveOptions {
  /** Keep the old copies (default: removed once the row names the verified new copy). */
  keepSource?: boolean;
  onProgress?: (progress: MoveProgress) => void;
}

async function sha256Of(stream: Readable): Promise<{ hash: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const piece of stream) {
    const buffer = piece as Buffer;
    hash.update(buffer);
    bytes += buffer.length;
  }
  return { hash: hash.digest('hex'), bytes };
}

/** Streams `source` into `put`, hashing the bytes on their way through (a transform: only `put` consumes them). */
async function copyHashing(
  source: Readable,
  put: (bytes: Readable) => Promise<string>,
): Promise<{ key: string; hash: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(piece: Buffer, _encoding: BufferEncoding, done: (error: null, piece: Buffer) => void) {
      hash.update(piece);
      bytes += piece.length;
      done(null, piece);
    },
  });
  const [key] = await Promise.all([put(tap), pipeline(source, tap)]);
  return { key, hash: hash.digest('hex'), bytes };
}

function checksumOf(lines: ReadonlyArray<[assetId: string, hash: string]>): string {
  const all = createHash('sha256');
  for (const [assetId, hash] of [...lines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    all.update(`${assetId} ${hash}\n`);
  return all.digest('hex');
}

export async function moveAssets(store: Store, assets: Assets, options: MoveOptions = {}): Promise<MoveReport> {
  const destination = assets.writer;
  const assetIds = await store.directory.assetIds();
  const report: MoveReport = {
    to: destination.storage,
    total: assetIds.length,
    moved: 0,
    alreadyThere: 0,
    bytes: 0,
    sourceChecksum: '',
    destinationChecksum: '',
    failures: [],
  };
  const sourceHashes: Array<[string, string]> = [];
  const destinationHashes: Array<[string, string]> = [];
  let done = 0;
  for (const assetId of assetIds) {
    const record = await store.assets.getAsset(assetId);
    done += 1;
    if (!record || record.storage === destination.storage) {
      if (record) report.alreadyThere += 1;
      options.onProgress?.({ done, total: assetIds.length, bytes: report.bytes });
      continue;
    }
    const source = assets.reader(record.storage);
    if (!source) {
      report.failures.push({
        assetId,
        reason: `kept in ${record.storage} storage, which this command was not given the settings to reach`,
      });
      continue;
    }
    let landed: AssetLocation | null = null;
    try {
      const copied = await copyHashing(await source.open(record), (bytes) =>
        destination.put(assetId, bytes, record.byteSize),
      );
      landed = {
        ...record,
        storage: destination.storage,
        storageKey: destination.storage === 'local' ? null : copied.key,
      };
      const readBack = await sha256Of(await destination.open(landed));
      if (copied.bytes !== record.byteSize || readBack.bytes !== record.byteSize || readBack.hash !== copied.hash) {
        throw new Error(
          `the copy does not match: ${copied.bytes} bytes read, ${readBack.bytes} written, ${record.byteSize} recorded`,
        );
      }
      const relocated = await store.assets.relocateAsset(assetId, record, landed);
      if (!relocated) throw new Error('its row changed during the copy (another migration?); left as it was');
      sourceHashes.push([assetId, copied.hash]);
      destinationHashes.push([assetId, readBack.hash]);
      report.moved += 1;
      report.bytes += copied.bytes;
      if (!options.keepSource) await source.remove(record);
    } catch (error) {
      // A copy whose row does not name it is removed: nothing half-moved stays behind.
      if (landed && (await store.assets.getAsset(assetId))?.storageKey !== landed.storageKey) {
        await destination.remove(landed).catch(() => undefined);
      }
      report.failures.push({ assetId, reason: error instanceof Error ? error.message : String(error) });
    }
    options.onProgress?.({ done, total: assetIds.length, bytes: report.bytes });
  }
  report.sourceChecksum = checksumOf(sourceHashes);
  report.destinationChecksum = checksumOf(destinationHashes);
  return report;
}

export interface SettleReport {
  /** Assets readable where their row says (a restored file, a chunk restored with the dump, an object still in S3). */
  inPlace: number;
  /** Assets brought back from the archive's copy into the chosen store. */
  fromArchive: number;
  /** Assets readable nowhere: their row is kept, their URL answers 404. */
  missing: string[];
}

async function readable(assets: Assets, location: AssetLocation): Promise<boolean> {
  const reader = assets.reader(location.storage);
  if (!reader) return false;
  try {
    (await reader.open(location, location.byteSize > 0 ? { start: 0, end: 0 } : undefined)).destroy();
    return true;
  } catch {
    return false;
  }
}

/**
 * After `admin restore` (docs/operations.md, "Backups"): every asset the restored database lists is made readable.
 * An asset still readable where its row says stays there; any other is put from the archive's copy (a file in the
 * restored data dir) into this command's asset store, and its row pointed at it.
 */
export async function settleRestoredAssets(store: Store, assets: Assets, archiveDir: string): Promise<SettleReport> {
  const report: SettleReport = { inPlace: 0, fromArchive: 0, missing: [] };
  const destination = assets.writer;
  for (const record of await store.assets.listAssets()) {
    if (await readable(assets, record)) {
      report.inPlace += 1;
      continue;
    }
    const file = join(archiveDir, record.assetId);
    if (!existsSync(file)) {
      report.missing.push(record.assetId);
      continue;
    }
    // The archive's copies were restored as local files: for the local store, the row only has to name them.
    const key =
      destination.storage === 'local'
        ? null
        : await destination.put(record.assetId, createReadStream(file), record.byteSize);
    await store.assets.relocateAsset(record.assetId, record, { storage: destination.storage, storageKey: key });
    if (destination.storage !== 'local') await rm(file, { force: true });
    report.fromArchive += 1;
  }
  return report;
}
