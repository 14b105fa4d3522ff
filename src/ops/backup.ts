import { copyFileSync, createWriteStream, existsSync, linkSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { create as createTar } from 'tar';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest } from '../contract/index.js';
import { ASSET_ID } from '../runs/asset-files.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../shared/private-files.js';
import { PACKAGE_VERSION } from '../shared/version.js';
import type { StoreLocation } from '../store/store.js';
import { ARCHIVE_ROOT, ASSETS_DIR, DATABASE_FILE, MANIFEST_FILE, privateStagingDir } from './backup-layout.js';

/**
 * `admin backup`: one archive with a consistent copy of the database and the asset files it lists. On SQLite the copy
 * is made with SQLite's online backup API, safe while servers write; the assets are those the copy lists (a file is
 * published before the run that made it commits, so each is already in place). On PostgreSQL the database is dumped
 * with pg_dump (not bundled here); the archive holds the assets and the manifest.
 */

export interface BackupSource {
  location: StoreLocation;
  /** The data dir whose assets/ holds the files. */
  dataDir: string;
  /** PostgreSQL: the asset ids the database lists (SQLite reads them from its copy). */
  listAssets: () => Promise<string[]>;
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

function readCopy(staged: string): { assetIds: string[]; schemaVersion: number | null } {
  const copy = new Database(staged, { readonly: true, fileMustExist: true });
  try {
    const assetIds = (copy.prepare('SELECT id FROM assets ORDER BY id').pluck().all() as unknown[]).map(String);
    const version = copy.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get();
    return { assetIds, schemaVersion: typeof version === 'number' ? version : null };
  } finally {
    copy.close();
  }
}

/** Links (or, across filesystems, copies) the listed asset files into the staging folder. */
function stageAssets(assetIds: readonly string[], from: string, to: string): { count: number; bytes: number; missing: string[] } {
  mkdirSync(to, { mode: PRIVATE_DIR_MODE });
  let count = 0;
  let bytes = 0;
  const missing: string[] = [];
  for (const assetId of assetIds) {
    const source = join(from, assetId);
    if (!ASSET_ID.test(assetId) || !existsSync(source)) {
      missing.push(assetId);
      continue;
    }
    try {
      linkSync(source, join(to, assetId));
    } catch {
      copyFileSync(source, join(to, assetId));
    }
    count += 1;
    bytes += statSync(source).size;
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
    let assetIds: string[];
    let schemaVersion: number | null = null;
    if (source.location.kind === 'sqlite') {
      const staged = join(root, DATABASE_FILE);
      await copySqlite(source.location.file, staged);
      ({ assetIds, schemaVersion } = readCopy(staged));
    } else {
      assetIds = await source.listAssets();
    }
    const assets = stageAssets(assetIds, join(resolve(source.dataDir), ASSETS_DIR), join(root, ASSETS_DIR));
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
