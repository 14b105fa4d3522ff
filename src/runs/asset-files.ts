import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Asset bytes live in files under the data dir (`assets/<asset_id>`), written atomically. Asset ids are random
 * (96 bits), so the stable URL /assets/<asset_id> is unguessable (docs/runs.md).
 */
export const ASSET_ID = /^asset_[A-Za-z0-9_-]{16}$/;

export function assetUrl(assetId: string): string {
  return `/assets/${assetId}`;
}

export function createAssetFiles(dataDir: string) {
  const dir = join(dataDir, 'assets');
  mkdirSync(dir, { recursive: true });
  return {
    write(assetId: string, bytes: Buffer): void {
      if (!ASSET_ID.test(assetId)) throw new Error('not an asset id');
      const temporary = join(dir, `.${assetId}.${process.pid}.tmp`);
      writeFileSync(temporary, bytes);
      renameSync(temporary, join(dir, assetId));
    },
    read(assetId: string): Promise<Buffer> {
      if (!ASSET_ID.test(assetId)) return Promise.reject(new Error('not an asset id'));
      return readFile(join(dir, assetId));
    },
  };
}

export type AssetFiles = ReturnType<typeof createAssetFiles>;
