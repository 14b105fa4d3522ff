import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { extract } from 'tar';
import { BackupManifest } from '../contract/index.js';
import { ASSET_ID } from '../runs/asset-files.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../shared/private-files.js';
import { ARCHIVE_ROOT, ASSETS_DIR, DATABASE_FILE, MANIFEST_FILE, privateStagingDir } from './backup-layout.js';

/**
 * `admin restore`: an archive of `admin backup` into a new, empty data dir (never over one in use). The database copy
 * is checked before anything is put in place; directories are 0700 and files 0600, like every data dir.
 */

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

export interface RestoreResult {
  dataDir: string;
  manifest: BackupManifest;
}

/** Only what a backup holds: the top folder, its manifest and database, and asset files. Nothing else is written. */
function expectedEntry(path: string, type: string): boolean {
  const parts = path.replace(/\/+$/, '').split('/');
  if (parts[0] !== ARCHIVE_ROOT) return false;
  if (type === 'Directory') return parts.length === 1 || (parts.length === 2 && parts[1] === ASSETS_DIR);
  if (type !== 'File') return false;
  if (parts.length === 2) return parts[1] === MANIFEST_FILE || parts[1] === DATABASE_FILE;
  return parts.length === 3 && parts[1] === ASSETS_DIR && ASSET_ID.test(parts[2]!);
}

function readManifest(root: string): BackupManifest {
  const file = join(root, MANIFEST_FILE);
  if (!existsSync(file)) throw new RestoreRefused('This is not a canvas-mcp backup: it has no manifest.json.');
  const parsed = BackupManifest.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new RestoreRefused(
      `This backup's manifest is not one this version reads: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
    );
  return parsed.data;
}

function checkDatabase(file: string): void {
  const database = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const verdict = database.pragma('quick_check', { simple: true });
    if (verdict !== 'ok') throw new RestoreRefused(`The database in this backup is damaged: ${String(verdict)}.`);
  } finally {
    database.close();
  }
}

export async function restoreBackup(archive: string, dataDir: string): Promise<RestoreResult> {
  const source = resolve(archive);
  const target = resolve(dataDir);
  if (!existsSync(source)) throw new RestoreRefused(`No backup at ${source}.`);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new RestoreRefused(
      `${target} is not empty: restore into a new or empty --data directory (a backup never overwrites a store).`,
    );
  }
  mkdirSync(target, { recursive: true, mode: PRIVATE_DIR_MODE });
  const staging = privateStagingDir(target);
  try {
    await extract({
      file: source,
      cwd: staging,
      strict: true,
      filter: (path, entry) => expectedEntry(path, 'type' in entry ? entry.type : 'File'),
    });
    const root = join(staging, ARCHIVE_ROOT);
    const manifest = readManifest(root);
    const database = join(root, DATABASE_FILE);
    if (manifest.dialect === 'sqlite') {
      if (!existsSync(database)) throw new RestoreRefused('This SQLite backup has no canvas.db.');
      checkDatabase(database);
    }

    // Put in place only once everything checked out; the modes are set on the way in.
    const assets = join(root, ASSETS_DIR);
    const assetTarget = join(target, ASSETS_DIR);
    mkdirSync(assetTarget, { mode: PRIVATE_DIR_MODE });
    chmodSync(assetTarget, PRIVATE_DIR_MODE);
    for (const assetId of existsSync(assets) ? readdirSync(assets) : []) {
      chmodSync(join(assets, assetId), PRIVATE_FILE_MODE);
      renameSync(join(assets, assetId), join(assetTarget, assetId));
    }
    if (manifest.dialect === 'sqlite') {
      chmodSync(database, PRIVATE_FILE_MODE);
      renameSync(database, join(target, DATABASE_FILE));
    }
    chmodSync(target, PRIVATE_DIR_MODE);
    return { dataDir: target, manifest };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
