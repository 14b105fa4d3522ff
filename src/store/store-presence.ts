import { existsSync, statSync } from 'node:fs';
import { asStoreError } from './store-outage.js';
import type { StoreLocation } from './store.js';

/**
 * Whether a store already exists at a location, without creating anything: an admin command run from the wrong
 * directory must say so rather than open (and so create) a new, empty store.
 */
export async function storeExists(location: StoreLocation): Promise<boolean> {
  if (location.kind === 'sqlite') return existsSync(location.file) && statSync(location.file).size > 0;
  // Loaded here, not at the top: every admin command asks this, and most name a SQLite store.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: location.url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    // to_regclass follows the connection's search_path, as the store's own queries do.
    const result = await client.query<{ present: boolean }>(
      "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
    );
    return result.rows[0]?.present === true;
  } catch (error) {
    throw asStoreError(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The location for people and logs: the SQLite file, or the PostgreSQL URL without its password. */
export function describeStoreLocation(location: StoreLocation): string {
  if (location.kind === 'sqlite') return `sqlite ${location.file}`;
  try {
    const url = new URL(location.url);
    if (url.password) url.password = '';
    return `postgres ${url.toString()}`;
  } catch {
    return 'postgres (unparsable URL)';
  }
}
