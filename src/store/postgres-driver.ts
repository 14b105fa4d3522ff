import pg from 'pg';
import { createPostgresListener } from './postgres-listener.js';
import type { SqlDriver, SqlExecutor, SqlParam, SqlRow } from './sql-driver.js';
import { asStoreError, isStoreOutage } from './store-outage.js';

const INT8_OID = 20;
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';
const MAX_TRANSACTION_ATTEMPTS = 4;

/** BIGINT columns hold millisecond timestamps and revisions, all within Number's safe range. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as never,
};

const placeholderCache = new Map<string, string>();

/** `?` → `$1, $2, …` (our SQL has no `?` inside literals). */
function toPositional(sql: string): string {
  let converted = placeholderCache.get(sql);
  if (converted === undefined) {
    let index = 0;
    converted = sql.replace(/\?/g, () => `$${++index}`);
    placeholderCache.set(sql, converted);
  }
  return converted;
}

function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  const query = async (sql: string, params: readonly SqlParam[]) => {
    try {
      return await client.query(toPositional(sql), params as SqlParam[]);
    } catch (error) {
      throw asStoreError(error);
    }
  };
  return {
    async all(sql, params = []) {
      return (await query(sql, params)).rows as SqlRow[];
    },
    async get(sql, params = []) {
      return (await query(sql, params)).rows[0] as SqlRow | undefined;
    },
    async run(sql, params = []) {
      return { changes: (await query(sql, params)).rowCount ?? 0 };
    },
    async exec(sql) {
      try {
        await client.query(sql);
      } catch (error) {
        throw asStoreError(error);
      }
    },
  };
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === SERIALIZATION_FAILURE || code === DEADLOCK_DETECTED;
}

export interface PostgresDriverOptions {
  connectionString: string;
  maxConnections?: number;
}

/** PostgreSQL through a `pg` pool. Safe for many server processes on one database. */
export function openPostgresDriver(options: PostgresDriverOptions): SqlDriver {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    types,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const poolExecutor = executor(pool);
  const listener = createPostgresListener(options.connectionString);

  async function checkout(): Promise<pg.PoolClient> {
    try {
      return await pool.connect();
    } catch (error) {
      throw asStoreError(error);
    }
  }

  async function inTransaction<T>(begin: string, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await checkout();
      // A checked-out client has no listener of the pool's: without this one, the server going away while a
      // transaction waits (a restart) would be an unhandled 'error' event and end the process.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      client.on('error', onError);
      try {
        await client.query(begin);
        const result = await work(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (!broken && !isStoreOutage(error)) await client.query('ROLLBACK').catch(() => undefined);
        if (isStoreOutage(error) || (error as { code?: unknown }).code === 'unavailable') broken ??= error as Error;
        if (attempt < MAX_TRANSACTION_ATTEMPTS && isRetryable(error)) continue;
        throw asStoreError(error);
      } finally {
        // A broken connection is destroyed, never handed to the next caller.
        client.release(broken);
        client.removeListener('error', onError);
      }
    }
  }

  return {
    dialect: 'postgres',
    forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
    forUpdate: ' FOR UPDATE',
    stats: {
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      onWriterWait: () => undefined,
    },
    all: poolExecutor.all,
    get: poolExecutor.get,
    run: poolExecutor.run,
    transaction: (work) => inTransaction('BEGIN', work),
    readSnapshot: (work) => inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work),
    readVersion: async () => null,
    async notify(tx, channel, payload) {
      await tx.get('SELECT pg_notify(?, ?)', [channel, payload]);
    },
    listen(channel, onPayload, onResync) {
      return listener.listen(channel, { onPayload, onResync });
    },
    // NOTIFY already reaches this process's listeners too.
    signalLocal: () => undefined,
    onLocalCommit: () => () => undefined,
    exec: poolExecutor.exec,
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}
