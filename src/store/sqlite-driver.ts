import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile } from '../shared/private-files.js';
import { AsyncMutex, type SqlDriver, type SqlExecutor, type SqlParam, type SqlRow } from './sql-driver.js';
import { asStoreError } from './store-outage.js';

type Connection = Database.Database;

/** Statement cache per connection: statements are prepared once. */
function executor(connection: Connection): SqlExecutor {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  // A busy or failing database (locked past busy_timeout, disk full, I/O error) is an outage: `unavailable`.
  const guarded = <T>(work: () => T): Promise<T> => {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(asStoreError(error));
    }
  };
  return {
    all: (sql, params = []) => guarded(() => prepare(sql).all(...(params as SqlParam[])) as SqlRow[]),
    get: (sql, params = []) => guarded(() => prepare(sql).get(...(params as SqlParam[])) as SqlRow | undefined),
    run: (sql, params = []) => guarded(() => ({ changes: prepare(sql).run(...(params as SqlParam[])).changes })),
    exec: (sql) =>
      guarded(() => {
        connection.exec(sql);
      }),
  };
}

/**
 * `full` (the default) fsyncs the WAL on every commit: an acknowledged write survives power loss. `normal` skips
 * that fsync: a write survives a crash of the process, but the last ones may be lost on power loss
 * (docs/operations.md). It is an operator's choice, never made silently.
 */
export type SqliteSynchronous = 'full' | 'normal';

function open(file: string, synchronous: SqliteSynchronous): Connection {
  const connection = new Database(file);
  connection.pragma('busy_timeout = 10000');
  connection.pragma('foreign_keys = ON');
  // WAL lets readers work during a write.
  connection.pragma('journal_mode = WAL');
  connection.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  return connection;
}

/**
 * SQLite through better-sqlite3. Two connections: a writer for transactions (serialized by a mutex, because a
 * transaction body awaits between statements) and a reader, which in WAL mode sees only committed data.
 */
export function openSqliteDriver(file: string, synchronous: SqliteSynchronous = 'full'): SqlDriver {
  ensurePrivateDir(dirname(file));
  ensurePrivateFile(file);
  const writerConnection = open(file, synchronous);
  const readerConnection = open(file, synchronous);
  const writer = executor(writerConnection);
  const reader = executor(readerConnection);
  const writeLock = new AsyncMutex();
  const readLock = new AsyncMutex();
  let writerWaitListener: ((seconds: number) => void) | null = null;
  /** Runs a write under the writer lock; `acquired` is called once it holds the writer (metrics). */
  const asWriter = <T>(work: (acquired: () => void) => Promise<T>): Promise<T> => {
    const queued = performance.now();
    return writeLock.run(() =>
      work(() => {
        writerWaitListener?.((performance.now() - queued) / 1000);
      }),
    );
  };
  // SQLite's data_version changes when another connection (our writer, or another process) commits.
  const dataVersion = readerConnection.prepare('PRAGMA data_version').pluck();

  async function inTransaction<T>(
    connection: Connection,
    begin: string,
    tx: SqlExecutor,
    work: (tx: SqlExecutor) => Promise<T>,
    began?: () => void,
  ): Promise<T> {
    try {
      connection.exec(begin);
    } catch (error) {
      throw asStoreError(error);
    }
    began?.();
    try {
      const result = await work(tx);
      connection.exec('COMMIT');
      return result;
    } catch (error) {
      if (connection.inTransaction) connection.exec('ROLLBACK');
      throw asStoreError(error);
    }
  }

  return {
    dialect: 'sqlite',
    forUpdateSkipLocked: '',
    forUpdate: '',
    stats: {
      pool: () => null,
      onWriterWait(listener) {
        writerWaitListener = listener;
      },
    },
    all: (sql, params) => reader.all(sql, params),
    get: (sql, params) => reader.get(sql, params),
    run: (sql, params) =>
      asWriter((acquired) => {
        acquired();
        return writer.run(sql, params);
      }),
    transaction: (work) => asWriter((acquired) => inTransaction(writerConnection, 'BEGIN IMMEDIATE', writer, work, acquired)),
    readSnapshot: (work) => readLock.run(() => inTransaction(readerConnection, 'BEGIN', reader, work)),
    readVersion: async () => dataVersion.get() as number,
    notify: async () => undefined,
    listen: async () => async () => undefined,
    exec: (sql) => writeLock.run(() => writer.exec(sql)),
    async close() {
      await writeLock.run(async () => undefined);
      readerConnection.close();
      writerConnection.close();
    },
  };
}
