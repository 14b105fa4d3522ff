import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  openStore,
  sqliteFileIn,
  type OpenStoreOptions,
  type Store,
  type StoreLocation,
} from '../../src/store/store.js';

/**
 * Real databases for tests: a fresh SQLite file per store, and a fresh schema in the local PostgreSQL.
 * PostgreSQL tests run when the server is reachable; when it is not, they are skipped with a loud warning,
 * unless CANVAS_MCP_REQUIRE_POSTGRES=1 (set by .ci/run), which turns the absence into a failure.
 */
export const POSTGRES_URL = process.env.CANVAS_MCP_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRE_POSTGRES = process.env.CANVAS_MCP_REQUIRE_POSTGRES === '1';

async function probePostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const postgresAvailable = await probePostgres();
if (!postgresAvailable) {
  if (REQUIRE_POSTGRES) {
    throw new Error(`PostgreSQL is required (CANVAS_MCP_REQUIRE_POSTGRES=1) but ${POSTGRES_URL} is unreachable.`);
  }
  console.warn(
    `\n*** PostgreSQL at ${POSTGRES_URL} is unreachable: the PostgreSQL variants of these tests are SKIPPED. ***\n`,
  );
}

export interface TestDatabase {
  location: StoreLocation;
  cleanup(): Promise<void>;
}

export async function createSqliteDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-test-'));
  return {
    location: { kind: 'sqlite', file: sqliteFileIn(dir) },
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One statement on the shared PostgreSQL as its administrator, on a connection of its own. */
async function administer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

const freshName = () => `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

export async function createPostgresDatabase(): Promise<TestDatabase> {
  const schema = freshName();
  await administer(`CREATE SCHEMA ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    location: { kind: 'postgres', url: url.toString() },
    cleanup: () => administer(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

/**
 * A fresh PostgreSQL database of its own, for a test that counts NOTIFY signals: a channel is shared by every schema
 * of one database, so the writes of test files running beside it on the shared `test` database would be heard too.
 */
export async function createSeparatePostgresDatabase(): Promise<TestDatabase> {
  const name = freshName();
  await administer(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    location: { kind: 'postgres', url: url.toString() },
    cleanup: () => administer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export interface StoreTarget {
  name: 'sqlite' | 'postgres';
  available: boolean;
  createDatabase(): Promise<TestDatabase>;
}

export const STORE_TARGETS: StoreTarget[] = [
  { name: 'sqlite', available: true, createDatabase: createSqliteDatabase },
  { name: 'postgres', available: postgresAvailable, createDatabase: createPostgresDatabase },
];

export async function openTestStore(
  target: StoreTarget,
  options: OpenStoreOptions = {},
): Promise<{ store: Store; database: TestDatabase; close(): Promise<void> }> {
  const database = await target.createDatabase();
  const store = await openStore(database.location, options);
  return {
    store,
    database,
    async close() {
      await store.close();
      await database.cleanup();
    },
  };
}

/**
 * Two server processes on one fresh database, as far as the store goes: `here` migrates it; `elsewhere` opens it as a
 * second `serve` would, with its own connections, caches and (on PostgreSQL) its own LISTEN connection.
 */
export async function openTwoProcesses(
  target: StoreTarget,
): Promise<{ here: Store; elsewhere: Store; database: TestDatabase; close(): Promise<void> }> {
  const database = await target.createDatabase();
  const here = await openStore(database.location);
  const elsewhere = await openStore(database.location, { migrate: false });
  return {
    here,
    elsewhere,
    database,
    async close() {
      await elsewhere.close();
      await here.close();
      await database.cleanup();
    },
  };
}
