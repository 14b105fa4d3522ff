import { mkdtempSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_DIR_MODE } from '../shared/private-files.js';
import { chmodSync } from 'node:fs';

/**
 * The layout of a backup archive (a gzipped tar): one top folder, so extracting it never scatters files.
 *
 *   canvas-mcp-backup/manifest.json
 *   canvas-mcp-backup/canvas.db          (SQLite only: a consistent copy made with SQLite's online backup)
 *   canvas-mcp-backup/assets/<asset_id>  (the files of the assets that database lists)
 */
export const ARCHIVE_ROOT = 'canvas-mcp-backup';
export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'canvas.db';
export const ASSETS_DIR = 'assets';

/** A private working folder beside `near` (same filesystem, so files can be linked or renamed into place). */
export function privateStagingDir(near: string): string {
  const dir = mkdtempSync(join(dirname(near), `.${basename(near)}.staging-`));
  chmodSync(dir, PRIVATE_DIR_MODE);
  return dir;
}
