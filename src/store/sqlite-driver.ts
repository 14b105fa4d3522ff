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
  /**
   * Reading data_version starts a read transaction on the reader (file and shared-memory locks: 6–8 µs under load),
   * and one request asks for it several times (its token, its membership, its canvas). The answer is kept for the
   * rest of the event loop's turn: the reads of that turn answer as of its start, as if they had run together then.
   * A pending setImmediate keeps the loop from waiting for I/O in between, so the answer is never older than the
   * turn. A commit of this process's writer forgets it at once: our own writes are seen by the next read.
   */
  /**
   * The writer's own data_version changes only when another connection commits: in this process nobody else commits
   * (the reader only reads), so it tells another process's commits apart from ours. Kept for the turn, like the above.
   */
  const writerDataVersion = writerConnection.prepare('PRAGMA data_version').pluck();
  let otherVersionThisTurn: number | null = null;
  const forgetOtherVersion = (): void => {
    otherVersionThisTurn = null;
  };
  let versionThisTurn: number | null = null;
  const forgetVersion = (): void => {
    versionThisTurn = null;
  };
  const readVersionThisTurn = (): number => {
    if (versionThisTurn === null) {
      versionThisTurn = dataVersion.get() as number;
      setImmediate(forgetVersion);
    }
    return versionThisTurn;
  };

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
      if (connection === writerConnection) forgetVersion();
      return result;
    } catch (error) {
      if (connection.inTransaction) connection.exec('ROLLBACK');
      throw asStoreError(error);
    }
  }

  /**
   * Group commit (docs/performance.md, "Writes and group commit"): write transactions that arrive while one is queued
   * or flushing share the next durable commit. Each runs inside its own SAVEPOINT, so each is still all or nothing and
   * a refused write (a revision conflict, a check) rolls back only itself, never its neighbours; every member learns
   * its outcome only after the COMMIT (and its fsync) returned. The group is formed at the next turn of the event loop
   * (setImmediate), after the requests that arrived together were all read: a lone writer waits for nothing else.
   */
  interface Member {
    work: (tx: SqlExecutor) => Promise<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
    queued: number;
  }
  const MAX_GROUP = 64;
  const localListeners = new Map<string, Set<() => void>>();
  const pending: Member[] = [];
  let drainScheduled = false;

  async function commitGroup(group: Member[]): Promise<void> {
    const began = () => {
      const now = performance.now();
      for (const member of group) writerWaitListener?.((now - member.queued) / 1000);
    };
    if (group.length === 1) {
      const [only] = group as [Member];
      await inTransaction(writerConnection, 'BEGIN IMMEDIATE', writer, only.work, began).then(
        only.resolve,
        only.reject,
      );
      return;
    }
    try {
      writerConnection.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const member of group) member.reject(asStoreError(error));
      return;
    }
    began();
    const applied: Array<{ member: Member; result: unknown }> = [];
    for (const member of group) {
      writerConnection.exec('SAVEPOINT group_member');
      try {
        const result = await member.work(writer);
        writerConnection.exec('RELEASE group_member');
        applied.push({ member, result });
      } catch (error) {
        if (writerConnection.inTransaction) {
          writerConnection.exec('ROLLBACK TO group_member');
          writerConnection.exec('RELEASE group_member');
          member.reject(asStoreError(error));
        } else {
          // SQLite rolled the whole transaction back (I/O error, disk full): nobody's write was committed.
          member.reject(asStoreError(error));
          for (const done of applied) done.member.reject(asStoreError(error));
          for (const rest of group.slice(group.indexOf(member) + 1)) rest.reject(asStoreError(error));
          return;
        }
      }
    }
    try {
      writerConnection.exec('COMMIT');
      forgetVersion();
    } catch (error) {
      if (writerConnection.inTransaction) writerConnection.exec('ROLLBACK');
      for (const done of applied) done.member.reject(asStoreError(error));
      return;
    }
    for (const done of applied) done.member.resolve(done.result);
  }

  function drain(): void {
    drainScheduled = false;
    // The group is formed once the writer is free: everything that queued meanwhile joins it.
    void writeLock.run(async () => {
      const group = pending.splice(0, MAX_GROUP);
      if (pending.length > 0) scheduleDrain();
      if (group.length > 0) await commitGroup(group);
    });
  }

  function scheduleDrain(): void {
    if (drainScheduled) return;
    drainScheduled = true;
    setImmediate(drain);
  }

  function groupTransaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      pending.push({ work, resolve: resolve as (value: unknown) => void, reject, queued: performance.now() });
      scheduleDrain();
    });
  }

  return {
    dialect: 'sqlite',
    forUpdateSkipLocked: '',
    forUpdate: '',
    stats: {
      pool: () => null,
      notificationsReceived: () => ({}),
      onWriterWait(listener) {
        writerWaitListener = listener;
      },
    },
    all: (sql, params) => reader.all(sql, params),
    get: (sql, params) => reader.get(sql, params),
    run: (sql, params) =>
      asWriter((acquired) => {
        acquired();
        return writer.run(sql, params).finally(forgetVersion);
      }),
    transaction: groupTransaction,
    readSnapshot: (work) => readLock.run(() => inTransaction(readerConnection, 'BEGIN', reader, work)),
    readVersion: async () => readVersionThisTurn(),
    otherProcessVersion: () => {
      if (otherVersionThisTurn === null) {
        otherVersionThisTurn = writerDataVersion.get() as number;
        setImmediate(forgetOtherVersion);
      }
      return otherVersionThisTurn;
    },
    notify: async () => undefined,
    listen: async () => async () => undefined,
    // Queued behind the write lock, which the committing group holds until its COMMIT returned.
    signalLocal: (channel) => {
      const subscribers = localListeners.get(channel);
      if (!subscribers?.size) return;
      void writeLock
        .run(async () => undefined)
        .then(() => {
          for (const listener of subscribers) listener();
        });
    },
    onLocalCommit: (channel, listener) => {
      const subscribers = localListeners.get(channel) ?? new Set<() => void>();
      localListeners.set(channel, subscribers);
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
    exec: (sql) => writeLock.run(() => writer.exec(sql).finally(forgetVersion)),
    async close() {
      while (pending.length > 0 || drainScheduled) await new Promise((resolve) => setImmediate(resolve));
      await writeLock.run(async () => undefined);
      readerConnection.close();
      writerConnection.close();
    },
  };
}
