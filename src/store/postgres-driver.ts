import pg from 'pg';
import type { SqlDriver, SqlExecutor, SqlParam, SqlRow } from './sql-driver.js';

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
  return {
    async all(sql, params = []) {
      const result = await client.query(toPositional(sql), params as SqlParam[]);
      return result.rows as SqlRow[];
    },
    async get(sql, params = []) {
      const result = await client.query(toPositional(sql), params as SqlParam[]);
      return result.rows[0] as SqlRow | undefined;
    },
    async run(sql, params = []) {
      const result = await client.query(toPositional(sql), params as SqlParam[]);
      return { changes: result.rowCount ?? 0 };
    },
    async exec(sql) {
      await client.query(sql);
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

  async function inTransaction<T>(begin: string, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await pool.connect();
      try {
        await client.query(begin);
        const result = await work(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (attempt < MAX_TRANSACTION_ATTEMPTS && isRetryable(error)) continue;
        throw error;
      } finally {
        client.release();
      }
    }
  }

  return {
    dialect: 'postgres',
    forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
    forUpdate: ' FOR UPDATE',
    all: poolExecutor.all,
    get: poolExecutor.get,
    run: poolExecutor.run,
    transaction: (work) => inTransaction('BEGIN', work),
    readSnapshot: (work) => inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work),
    readVersion: async () => null,
    async notify(tx, channel, payload) {
      await tx.get('SELECT pg_notify(?, ?)', [channel, payload]);
    },
    async listen(channel, onPayload) {
      // One dedicated connection per listener; if it drops, callers still make progress by polling.
      const client = await pool.connect();
      client.on('notification', (message) => {
        if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
      });
      client.on('error', () => undefined);
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
        client.release();
      };
    },
    exec: poolExecutor.exec,
    async close() {
      await pool.end();
    },
  };
}
