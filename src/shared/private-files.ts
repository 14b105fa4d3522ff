import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data dir holds chat run ids, token hashes and asset ids (the only key to /assets/{id}): no other local user may
 * read it. Directories are 0700 and files 0600 (docs/security.md); SQLite gives its -wal and -shm files the mode of
 * the database file, so creating that file 0600 covers them.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const GROUP_OR_OTHER = 0o077;

/** Creates a private directory (and its parents), or leaves an existing one as it is. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates an empty private file if there is none, so whatever opens it next keeps that mode. */
export function ensurePrivateFile(file: string): void {
  if (existsSync(file)) return;
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
}

/**
 * Takes group and other permissions away from the data dir and what is in it; returns the paths it changed, for one
 * log line at start. Under a private directory nobody else can reach anything, so the whole tree is walked only when
 * the directory itself was open; otherwise only its own entries are checked.
 */
export function tightenPrivateTree(root: string): string[] {
  if (!existsSync(root)) return [];
  const changed: string[] = [];
  const tighten = (path: string): boolean => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink() || (stat.mode & GROUP_OR_OTHER) === 0) return false;
    chmodSync(path, stat.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
    changed.push(path);
    return true;
  };
  const walk = (dir: string, deep: boolean): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      tighten(path);
      if (deep && lstatSync(path).isDirectory()) walk(path, true);
    }
  };
  const rootWasOpen = tighten(root);
  walk(root, rootWasOpen);
  return changed;
}
