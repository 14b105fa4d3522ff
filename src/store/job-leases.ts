import type { SqlDriver, SqlExecutor, SqlParam } from './sql-driver.js';

/**
 * The lease statements every job table shares (node_runs, export_jobs; the machinery is src/jobs/job-workers.ts). A
 * worker claims a queued job in one guarded UPDATE (it names the state it leaves, so of two workers only one moves
 * it), and every later change it makes names the lease in its WHERE: the job is still running (or asked to stop) under
 * this worker in this attempt. A worker that lost its lease (it stalled, or died and the job was picked up again) can
 * never change the job again.
 */

export interface JobLease {
  jobId: string;
  workerId: string;
  attempt: number;
}

export type HeartbeatAnswer = 'running' | 'cancel_requested' | 'lost';

/** The states in which a worker holds a job. */
export const LEASED_STATUSES = ['running', 'cancel_requested'] as const;

export interface JobTable {
  /** `node_runs`, `export_jobs`. */
  name: string;
  /** The order jobs are taken in: the oldest first. */
  order: string;
}

export function jobLeases(driver: SqlDriver, table: JobTable) {
  return {
    /** `alias.status IN (…) AND alias.lease_owner = ? AND alias.attempt = ?`, with `params(lease)` after the id. */
    guard(alias = ''): string {
      const column = (name: string) => (alias ? `${alias}.${name}` : name);
      return `${column('status')} IN ('running', 'cancel_requested') AND ${column('lease_owner')} = ? AND ${column('attempt')} = ?`;
    },
    params(lease: JobLease): SqlParam[] {
      return [lease.workerId, lease.attempt];
    },

    /** The oldest queued job's id (`where` narrows it, on alias `j`), locked against other claimers, or undefined. */
    async nextQueued(tx: SqlExecutor, where = ''): Promise<string | undefined> {
      const row = await tx.get(
        `SELECT j.id AS id FROM ${table.name} j WHERE j.status = 'queued'${where ? ` AND ${where}` : ''}
         ORDER BY ${table.order} LIMIT 1${driver.forUpdateSkipLocked}`,
      );
      return row ? String((row as { id: unknown }).id) : undefined;
    },

    /** queued → running under this worker's lease, the attempt counted; `set` adds the table's own columns. */
    async claim(
      tx: SqlExecutor,
      id: string,
      lease: { workerId: string; expiresAt: number },
      set: { assignments: string; params: readonly SqlParam[] },
    ): Promise<boolean> {
      const { changes } = await tx.run(
        `UPDATE ${table.name} SET status = 'running', attempt = attempt + 1, lease_owner = ?, lease_expires_at = ?,
           ${set.assignments} WHERE id = ? AND status = 'queued'`,
        [lease.workerId, lease.expiresAt, ...set.params, id],
      );
      return changes === 1;
    },

    /** Extends a held lease and writes the progress a heartbeat carries (`set`: the table's own columns). */
    async extend(
      tx: SqlExecutor,
      lease: JobLease,
      expiresAt: number,
      set: { assignments: string; params: readonly SqlParam[] },
    ): Promise<boolean> {
      const { changes } = await tx.run(
        `UPDATE ${table.name} SET lease_expires_at = ?, ${set.assignments} WHERE id = ? AND ${this.guard()}`,
        [expiresAt, ...set.params, lease.jobId, ...this.params(lease)],
      );
      return changes === 1;
    },

    /**
     * Jobs whose worker stopped renewing its lease, locked against another recovery: `columns` read `from` (the table
     * as `alias`, by default `j`, with what it joins).
     */
    async expired(
      tx: SqlExecutor,
      now: number,
      read: { columns: string; from?: string; alias?: string },
    ): Promise<unknown[]> {
      const alias = read.alias ?? 'j';
      const lock = driver.forUpdateSkipLocked ? ` FOR UPDATE OF ${alias} SKIP LOCKED` : '';
      return tx.all(
        `SELECT ${read.columns} FROM ${read.from ?? `${table.name} ${alias}`}
         WHERE ${alias}.status IN ('running', 'cancel_requested') AND ${alias}.lease_expires_at < ?${lock}`,
        [now],
      );
    },
  };
}
