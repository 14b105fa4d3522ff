import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DATA_MIGRATIONS } from './data-migrations.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Numbered plain-SQL migrations in /migrations, applied in order, each once, by whichever process starts first. */

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;
// Any constant: PostgreSQL advisory lock that keeps two starting processes from migrating at once.
const MIGRATION_LOCK_KEY = 7_270_700_101;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(): Migration[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort()
    .map((file) => ({
      version: Number(MIGRATION_FILE.exec(file)![1]),
      name: file,
      sql: readFileSync(new URL(file, `file://${MIGRATIONS_DIR}`), 'utf8'),
    }));
}

const CREATE_LEDGER =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)';

async function appliedVersions(tx: SqlExecutor): Promise<Set<number>> {
  const rows = await tx.all('SELECT version FROM schema_migrations');
  return new Set(rows.map((row) => Number(row.version)));
}

/** Applies pending migrations (all of them unless a prefix is given) in one transaction; returns the names applied. */
export async function migrate(driver: SqlDriver, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  return driver.transaction(async (tx) => {
    if (driver.dialect === 'postgres') await tx.get(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.exec(CREATE_LEDGER);
    const applied = await appliedVersions(tx);
    const names: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await DATA_MIGRATIONS[migration.version]?.(tx);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        Date.now(),
      ]);
      names.push(migration.name);
    }
    return names;
  });
}

/** Names of migrations not yet applied (for /readyz). */
export async function pendingMigrations(driver: SqlDriver): Promise<string[]> {
  const rows = await driver.all('SELECT version FROM schema_migrations').catch(() => []);
  const applied = new Set(rows.map((row) => Number(row.version)));
  return loadMigrations()
    .filter((migration) => !applied.has(migration.version))
    .map((migration) => migration.name);
}
