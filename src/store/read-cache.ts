import type { SqlDriver } from './sql-driver.js';

/**
 * Remembers parsed read results for as long as the database has not changed (the driver's read version). On
 * SQLite this turns the per-request token and canvas lookups into map hits under read load, while staying as fresh
 * as a query made at the start of the event loop's turn: a commit of this process clears it at once, another
 * process's from the next turn (src/store/sqlite-driver.ts). On PostgreSQL every read goes through.
 */
const MAX_ENTRIES = 10_000;

export type ReadCache = <T>(key: string, load: () => Promise<T>) => Promise<T>;

export function createReadCache(driver: SqlDriver): ReadCache {
  let version: number | null = null;
  const entries = new Map<string, unknown>();
  return async function cachedRead<T>(key: string, load: () => Promise<T>): Promise<T> {
    const current = await driver.readVersion();
    if (current === null) return load();
    if (current !== version) {
      entries.clear();
      version = current;
    }
    if (entries.has(key)) return entries.get(key) as T;
    const value = await load();
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, value);
    return value;
  };
}

/** A bounded map for facts that never change once written (a token's scopes, a project's workspace). */
export function immutableCache<V>(limit: number) {
  const entries = new Map<string, V>();
  return {
    get: (key: string) => entries.get(key),
    set(key: string, value: V) {
      if (entries.size >= limit) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
    },
  };
}
