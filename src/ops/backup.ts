import {
  copyFileSync,
  createWriteStream,
  existsSync,
  linkSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { create as createTar } from 'tar';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest } from '../contract/index.js';
import { ASSET_ID, AssetMissing, type AssetLocation, type AssetStore } from '../assets/asset-store.js';
import type { AssetStorage } from '../store/records.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../shared/private-files.js';
import { PACKAGE_VERSION } from '../shared/version.js';
import type { StoreLocation } from '../store/store.js';
import { ARCHIVE_ROOT, ASSETS_DIR, DATABASE_FILE, MANIFEST_FILE, privateStagingDir } from './backup-layout.js';

/**
 * `admin backup`: one archive with a consistent copy of the database and the bytes of every asset it lists, wherever
 * they are kept (local files are linked; chunks in PostgreSQL and objects in S3 are streamed into the archive). On
 * SQLite the copy is made with SQLite's online backup API, safe while servers write; the assets are those the copy
 * lists (an asset's bytes are in place before the run that made it commits). On PostgreSQL the database is dumped
 * with pg_dump (not bundled here); the archive holds the assets and the manifest.
 */

export interface BackupSource {
  location: StoreLocation;
  /** The data dir whose assets/ holds the files. */
  dataDir: string;
  /** PostgreSQL: the assets the database lists (SQLite reads them from its copy). */
  listAssets: () => Promise<AssetLocation[]>;
  /** The store that holds assets kept elsewhere than in local files, or null when this command cannot reach it. */
  readerOf: (storage: AssetStorage) => AssetStore | null;
}

export interface BackupResult {
  archive: string;
  bytes: number;
  manifest: BackupManifest;
}

function copySqlite(file: string, staged: string): Promise<unknown> {
  const source = new Database(file, { fileMustExist: true });
  source.pragma('busy_timeout = 10000');
  return source.backup(staged).finally(() => source.close());
}

function readCopy(staged: string): { assets: AssetLocation[]; schemaVersion: number | null } {
  const copy = new Database(staged, { readonly: true, fileMustExist: true });
  try {
    // A store from before migration 008 keeps every asset in a local file.
    const placed =
      (copy
        .prepare("SELECT COUNT(*) FROM pragma_table_info('assets') WHERE name = 'storage'")
        .pluck()
        .get() as number) > 0;
    const rows = copy
      .prepare(
        placed
          ? 'SELECT id, storage, storage_key, byte_size, mime_type FROM assets ORDER BY id'
          : "SELECT id, 'local' AS storage, NULL AS storage_key, byte_size, mime_type FROM assets ORDER BY id",
      )
      .all() as Array<{
      id: string;
      storage: AssetStorage;
      storage_key: string | null;
      byte_size: number;
      mime_type: string;
    }>;
    const version = copy.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get();
    return {
      assets: rows.map((row) => ({
        assetId: row.id,
        storage: row.storage,
        storageKey: row.storage_key,
        byteSize: row.byte_size,
        mimeType: row.mime_type,
      })),
      schemaVersion: typeof version === 'number' ? version : null,
    };
  } finally {
    copy.close();
  }
}

/** Links (or, across filesystems, copies) local asset files into the staging folder, and streams the others in. */
async function stageAssets(
  assets: readonly AssetLocation[],
  from: string,
  to: string,
  readerOf: BackupSource['readerOf'],
): Promise<{ count: number; bytes: number; missing: string[] }> {
  mkdirSync(to, { mode: PRIVATE_DIR_MODE });
  let count = 0;
  let bytes = 0;
  const missing: string[] = [];
  for (const asset of assets) {
    const { assetId } = asset;
    if (!ASSET_ID.test(assetId)) {
      missing.push(assetId);
      continue;
    }
    const target = join(to, assetId);
    if (asset.storage === 'local') {
      const source = join(from, assetId);
      if (!existsSync(source)) {
        missing.push(assetId);
        continue;
      }
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    } else {
      const reader = readerOf(asset.storage);
      if (!reader)
        throw new Error(
          `${assetId} is kept in ${asset.storage} storage: give this command the settings to reach it (docs/operations.md, "Asset storage").`,
        );
      try {
        await pipeline(await reader.open(asset), createWriteStream(target, { mode: PRIVATE_FILE_MODE, flags: 'wx' }));
      } catch (error) {
        if (!(error instanceof AssetMissing)) throw error;
        rmSync(target, { force: true });
        missing.push(assetId);
        continue;
      }
    }
    count += 1;
    bytes += statSync(target).size;
  }
  return { count, bytes, missing };
}

export async function createBackup(source: BackupSource, out: string): Promise<BackupResult> {
  const archive = resolve(out);
  if (existsSync(archive)) throw new Error(`${archive} already exists: choose another --out, or remove it first.`);
  const staging = privateStagingDir(archive);
  const root = join(staging, ARCHIVE_ROOT);
  mkdirSync(root, { mode: PRIVATE_DIR_MODE });
  try {
    let listed: AssetLocation[];
    let schemaVersion: number | null = null;
    if (source.location.kind === 'sqlite') {
      const staged = join(root, DATABASE_FILE);
      await copySqlite(source.location.file, staged);
      ({ assets: listed, schemaVersion } = readCopy(staged));
    } else {
      listed = await source.listAssets();
    }
    const assets = await stageAssets(
      listed,
      join(resolve(source.dataDir), ASSETS_DIR),
      join(root, ASSETS_DIR),
      source.readerOf,
    );
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      created_at: new Date().toISOString(),
      package_version: PACKAGE_VERSION,
      dialect: source.location.kind,
      schema_version: schemaVersion,
      assets: assets.count,
      asset_bytes: assets.bytes,
      missing_assets: assets.missing,
    };
    writeFileSync(join(root, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });

    // Written under a temporary name and renamed: an interrupted backup never leaves a truncated archive behind.
    const partial = join(staging, 'archive.tar.gz');
    await pipeline(
      createTar({ gzip: true, cwd: staging, portable: true }, [ARCHIVE_ROOT]),
      createWriteStream(partial, { mode: PRIVATE_FILE_MODE, flags: 'wx' }),
    );
    renameSync(partial, archive);
    return { archive, bytes: statSync(archive).size, manifest };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
