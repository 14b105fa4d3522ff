import pg from 'pg';
import { deferWrite } from './pipeline.js';
import { createPostgresListener } from './postgres-listener.js';
import type { DuplicateKey, PipelinedExecutor, SqlDriver, SqlExecutor, SqlParam, SqlRow } from './sql-driver.js';
import { asStoreError, isStoreOutage } from './store-outage.js';

const INT8_OID = 20;
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';
const UNIQUE_VIOLATION = '23505';
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

/** A statement with its parameters bound (the extended protocol). */
async function bound(
  client: pg.Pool | pg.PoolClient,
  sql: string,
  params: readonly SqlParam[],
): Promise<pg.QueryResult> {
  try {
    return await client.query(toPositional(sql), params as SqlParam[]);
  } catch (error) {
    throw asStoreError(error);
  }
}

/** The executor over a way to run one statement (and a script without parameters). */
function executorOver(
  query: (sql: string, params: readonly SqlParam[]) => Promise<pg.QueryResult>,
  script: (sql: string) => Promise<unknown>,
): SqlExecutor {
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
        await script(sql);
      } catch (error) {
        throw asStoreError(error);
      }
    },
  };
}

function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return executorOver(
    (sql, params) => bound(client, sql, params),
    (sql) => client.query(sql),
  );
}

/**
 * A string as an SQL literal, exactly as `pg`'s escapeLiteral writes it: quotes doubled, and when there is a backslash,
 * backslashes doubled in an E'' literal, so it reads the same whatever standard_conforming_strings says. Two
 * replaces rather than `pg`'s loop of one concatenation per character: a 4 KB node body is escaped ten times faster,
 * with one string of garbage instead of thousands.
 */
export function escapeLiteral(value: string): string {
  const quoted = value.replaceAll("'", "''");
  return value.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** A parameter written into the statement's text, for statements sent together (the simple query protocol). */
function literal(value: SqlParam | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`A statement parameter is not a finite number: ${value}.`);
    // In parentheses: a negative number after a minus sign would otherwise start a comment (`- -1`).
    return value < 0 ? `(${value})` : String(value);
  }
  return `'\\x${value.toString('hex')}'::bytea`;
}

/** `?` → each parameter as a literal (our SQL has no `?` inside literals). */
function inline(sql: string, params: readonly SqlParam[]): string {
  let index = 0;
  return sql.replace(/\?/g, () => literal(params[index++]));
}

/**
 * A transaction's statements on one connection, sent in as few round trips as the work allows (docs/scaling.md,
 * "Measured at scale"): BEGIN and every deferred write wait for the next statement whose answer the work needs, and go
 * with it in one simple-protocol message; COMMIT goes with what is left. A statement sent alone keeps the extended
 * protocol (parameters bound, never inlined). PostgreSQL runs the statements of one message in order and stops at the
 * first error, which then fails the whole transaction, as it would one at a time.
 */
function pipelinedExecutor(client: pg.PoolClient): PipelinedExecutor & { commit(): Promise<void> } {
  const queued: Array<{ text: string; duplicate: DuplicateKey | undefined }> = [];
  async function send(reads: string[]): Promise<pg.QueryResult[]> {
    const entries = queued.splice(0);
    let answer: pg.QueryResult | pg.QueryResult[];
    try {
      answer = await (client.query([...entries.map((entry) => entry.text), ...reads].join(';\n')) as unknown as Promise<
        pg.QueryResult | pg.QueryResult[]
      >);
    } catch (error) {
      // A queued insert met its unique key: the caller's own refusal (the whole message stopped there).
      const { code, detail } = error as { code?: unknown; detail?: unknown };
      const met = code === UNIQUE_VIOLATION ? entries.find((entry) => entry.duplicate?.detail === detail) : undefined;
      if (met) throw met.duplicate!.error();
      throw asStoreError(error);
    }
    const results = Array.isArray(answer) ? answer : [answer];
    return results.slice(entries.length);
  }
  const query = async (sql: string, params: readonly SqlParam[]): Promise<pg.QueryResult> =>
    queued.length > 0 ? (await send([inline(sql, params)]))[0]! : bound(client, sql, params);
  return {
    ...executorOver(query, async (sql) => {
      if (queued.length > 0) await send([]);
      await client.query(sql);
    }),
    defer(sql, params, duplicate) {
      queued.push({ text: inline(sql, params), duplicate });
    },
    async getMany(queries) {
      if (queries.length === 0) return [];
      const results = await send(queries.map((each) => inline(each.sql, each.params)));
      return results.map((result) => result.rows[0] as SqlRow | undefined);
    },
    async allMany(queries) {
      if (queries.length === 0) return [];
      const results = await send(queries.map((each) => inline(each.sql, each.params)));
      return results.map((result) => result.rows as SqlRow[]);
    },
    async commit() {
      queued.push({ text: 'COMMIT', duplicate: undefined });
      await send([]);
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
        const tx = pipelinedExecutor(client);
        tx.defer(begin, []);
        const result = await work(tx);
        await tx.commit();
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
      notificationsReceived: () => listener.received(),
      onWriterWait: () => undefined,
    },
    all: poolExecutor.all,
    get: poolExecutor.get,
    run: poolExecutor.run,
    transaction: (work) => inTransaction('BEGIN', work),
    readSnapshot: (work) => inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work),
    readVersion: async () => null,
    otherProcessVersion: () => null,
    async notify(tx, channel, payload) {
      // Its answer is not needed: it goes with the transaction's next round trip (delivered at COMMIT anyway).
      await deferWrite(tx, 'SELECT pg_notify(?, ?)', [channel, payload]);
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
