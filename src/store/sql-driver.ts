/**
 * The three things the store needs from a database: run a statement, run a write transaction, and read a
 * consistent snapshot. SQL is written once with `?` placeholders in the portable subset both SQLite and
 * PostgreSQL accept; each driver adapts placeholders and transaction semantics.
 */
export type SqlParam = string | number | null | Buffer;
export type SqlRow = Record<string, unknown>;

export interface SqlExecutor {
  all(sql: string, params?: readonly SqlParam[]): Promise<SqlRow[]>;
  get(sql: string, params?: readonly SqlParam[]): Promise<SqlRow | undefined>;
  run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/**
 * What a PostgreSQL transaction adds (src/store/postgres-driver.ts): statements whose answer the write does not need
 * are queued and sent with the next round trip, and independent reads go out together, so a layout write costs two
 * round trips instead of one per statement. Absent on SQLite, where a statement costs no round trip;
 * src/store/pipeline.ts falls back to plain statements there.
 */
/** A unique key a queued insert may meet: PostgreSQL's error detail for it, and the error to answer instead. */
export interface DuplicateKey {
  detail: string;
  error: () => Error;
}

export interface PipelinedExecutor extends SqlExecutor {
  /**
   * Queues a write. `duplicate`: the error to answer when it fails on a unique key (PostgreSQL's message detail for
   * it, exactly): the failure stops the message, so nothing after it (COMMIT included) runs.
   */
  defer(sql: string, params: readonly SqlParam[], duplicate?: DuplicateKey): void;
  /** Several independent reads in one round trip (with anything queued before them). */
  getMany(queries: ReadonlyArray<{ sql: string; params: readonly SqlParam[] }>): Promise<Array<SqlRow | undefined>>;
  /** Like getMany, with every row of each read. */
  allMany(queries: ReadonlyArray<{ sql: string; params: readonly SqlParam[] }>): Promise<SqlRow[][]>;
}

export type SqlDialect = 'sqlite' | 'postgres';

/** What a driver tells about its own load (metrics). */
export interface DriverStats {
  /** PostgreSQL pool: connections open, idle ones, and callers waiting for one; null on SQLite. */
  pool(): { total: number; idle: number; waiting: number } | null;
  /**
   * Hears, for each SQLite write, how long it waited for the writer: this process's queue, then the file's write lock
   * (BEGIN IMMEDIATE), in seconds. Never called on PostgreSQL, where writers wait on rows, not on one writer.
   */
  onWriterWait(listener: ((seconds: number) => void) | null): void;
  /** PostgreSQL: notifications this process received (LISTEN), by channel, since it started; {} on SQLite. */
  notificationsReceived(): Record<string, number>;
}

export interface SqlDriver extends SqlExecutor {
  readonly dialect: SqlDialect;
  /** Appended to a SELECT that must lock the rows it reads until the transaction ends ('' on SQLite). */
  readonly forUpdate: string;
  /** Like forUpdate, but skipping rows another transaction holds (claiming work); '' on SQLite. */
  readonly forUpdateSkipLocked: string;
  readonly stats: DriverStats;
  /**
   * A write transaction: all or nothing. On SQLite it holds the database write lock from the start
   * (BEGIN IMMEDIATE); on PostgreSQL it is READ COMMITTED, and writers serialize on the rows they lock.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Several reads that see one committed state. */
  readSnapshot<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * A number that changes whenever any connection or process commits, or null when the database cannot tell
   * cheaply (PostgreSQL). While it stays the same, a read answers what it answered before.
   */
  readVersion(): Promise<number | null>;
  /**
   * A number that changes whenever another process commits, and never for this process's own commits (SQLite: the
   * writer connection's data_version); null on PostgreSQL. What a process may remember until another one changes it
   * (a token: src/store/token-cache.ts) is checked against it, not against every commit.
   */
  otherProcessVersion(): number | null;
  /**
   * Signals other processes when the transaction commits (PostgreSQL NOTIFY). A no-op on SQLite, where other
   * processes poll instead.
   */
  notify(tx: SqlExecutor, channel: string, payload: string): Promise<void>;
  /**
   * Receives the signals of `notify` from every process; resolves to an unsubscribe function. Signals can be lost
   * while the database is away: `onResync` runs after each reconnection, for the subscriber to re-read its state.
   */
  listen(channel: string, onPayload: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>>;
  /**
   * Tells this process's `onLocalCommit` subscribers of `channel` once the write in progress has committed (SQLite,
   * where `notify` reaches nobody; on PostgreSQL `notify` already reaches every process, this one included).
   */
  signalLocal(channel: string): void;
  onLocalCommit(channel: string, listener: () => void): () => void;
  close(): Promise<void>;
}

/** Serializes async critical sections on one connection (a transaction body awaits between statements). */
export class AsyncMutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
