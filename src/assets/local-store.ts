import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../shared/private-files.js';
import { ASSET_ID, AssetMissing, type AssetLocation, type AssetStore, type StagedAsset } from './asset-store.js';

/**
 * Assets as files under the data dir (`assets/<asset_id>`): the embedded default. A run's outputs are staged under
 * `assets/.staging` and renamed into place inside the run's completing transaction.
 */

export function localAssetPath(dataDir: string, assetId: string): string {
  if (!ASSET_ID.test(assetId)) throw new Error('not an asset id');
  return join(dataDir, 'assets', assetId);
}

export function createLocalAssetStore(dataDir: string): AssetStore & { pathOf(assetId: string): string } {
  const dir = join(dataDir, 'assets');
  const staging = join(dir, '.staging');
  mkdirSync(staging, { recursive: true, mode: PRIVATE_DIR_MODE });
  const pathOf = (assetId: string) => localAssetPath(dataDir, assetId);

  return {
    storage: 'local',
    pathOf,

    async stage(assetId, attempt, bytes): Promise<StagedAsset> {
      pathOf(assetId);
      const storageKey = `.staging/${assetId}.${attempt}.${randomBytes(4).toString('hex')}`;
      await writeFile(join(dir, storageKey), bytes, { mode: PRIVATE_FILE_MODE });
      return { assetId, storage: 'local', storageKey };
    },

    publish(staged) {
      for (const asset of staged) renameSync(join(dir, asset.storageKey), pathOf(asset.assetId));
    },

    async discard(staged) {
      for (const asset of staged) rmSync(join(dir, asset.storageKey), { force: true });
    },

    // A published file was renamed out of the staging directory: whatever is still there, old enough, was never
    // published (a run's input copies included); the rename of a put finishes in moments. A file put in place whose
    // row never committed (a process that died between an upload's put and its transaction) is removed too, once old
    // enough and only when no row names its asset id.
    async sweepStaged(before, known) {
      let removed = 0;
      const old = (path: string) => {
        const written = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
        return written !== undefined && written < before;
      };
      for (const name of readdirSync(staging)) {
        const path = join(staging, name);
        if (!old(path)) continue;
        rmSync(path, { recursive: true, force: true });
        removed += 1;
      }
      const placed = readdirSync(dir).filter((name) => ASSET_ID.test(name) && old(join(dir, name)));
      for (let start = 0; start < placed.length; start += 500) {
        const batch = placed.slice(start, start + 500);
        const withRows = await known(batch);
        for (const assetId of batch) {
          if (withRows.has(assetId)) continue;
          rmSync(pathOf(assetId), { force: true });
          removed += 1;
        }
      }
      return removed;
    },

    async open(location: AssetLocation, range) {
      const file = pathOf(location.assetId);
      try {
        await stat(file);
      } catch {
        throw new AssetMissing(location.assetId);
      }
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },

    async directUrl() {
      return null;
    },

    async put(assetId, bytes: Readable) {
      const staged = join(staging, `${assetId}.put.${randomBytes(4).toString('hex')}`);
      await pipeline(bytes, createWriteStream(staged, { mode: PRIVATE_FILE_MODE }));
      renameSync(staged, pathOf(assetId));
      return assetId;
    },

    async remove(location) {
      rmSync(pathOf(location.assetId), { force: true });
    },

    async close() {},
  };
}
