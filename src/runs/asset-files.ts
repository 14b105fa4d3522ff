import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../shared/private-files.js';

/**
 * Asset bytes live in files under the data dir (`assets/<asset_id>`). Asset ids are random (96 bits), so the stable
 * URL /assets/<asset_id> is unguessable (docs/runs.md).
 *
 * A worker never writes a final file itself: it stages its outputs under its own attempt, and they are published
 * (renamed into place) only inside the transaction that completes the run while the worker still holds its lease.
 * A worker that lost its lease publishes nothing, so it can never touch the files of a run another worker finished.
 */
export const ASSET_ID = /^asset_[A-Za-z0-9_-]{16}$/;

export function assetUrl(assetId: string): string {
  return `/assets/${assetId}`;
}

export interface StagedAsset {
  assetId: string;
  path: string;
}

export function createAssetFiles(dataDir: string) {
  const dir = join(dataDir, 'assets');
  const staging = join(dir, '.staging');
  mkdirSync(staging, { recursive: true, mode: PRIVATE_DIR_MODE });

  function finalPath(assetId: string): string {
    if (!ASSET_ID.test(assetId)) throw new Error('not an asset id');
    return join(dir, assetId);
  }

  return {
    /** Writes an output under this attempt, out of sight of readers. */
    stage(assetId: string, attempt: string, bytes: Buffer): StagedAsset {
      finalPath(assetId);
      const path = join(staging, `${assetId}.${attempt}.${randomBytes(4).toString('hex')}`);
      writeFileSync(path, bytes, { mode: PRIVATE_FILE_MODE });
      return { assetId, path };
    },

    /** Moves staged outputs into place: call only while holding the run's lease, inside its completing transaction. */
    publish(staged: readonly StagedAsset[]): void {
      for (const asset of staged) renameSync(asset.path, finalPath(asset.assetId));
    },

    /** Removes staged outputs that will never be published. */
    discard(staged: readonly StagedAsset[]): void {
      for (const asset of staged) rmSync(asset.path, { force: true });
    },

    read(assetId: string): Promise<Buffer> {
      if (!ASSET_ID.test(assetId)) return Promise.reject(new Error('not an asset id'));
      return readFile(join(dir, assetId));
    },

    /** The path of a published asset, for providers that read earlier outputs (trimming, composing). */
    pathOf(assetId: string): string {
      return finalPath(assetId);
    },
  };
}

export type AssetFiles = ReturnType<typeof createAssetFiles>;
