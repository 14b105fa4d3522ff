import type { RunStatus } from '../contract/index.js';
import { LEASED_STATUSES } from './job-leases.js';
import type { SqlExecutor, SqlParam } from './sql-driver.js';

/**
 * Every change of a run's status, one guarded UPDATE per change (graphile-worker style): the statement names in its
 * WHERE the state(s) the run leaves, so of two writers that read a run in the same state only one can move it; the
 * other's statement changes nothing and it hears false. Callers move a run whose row they hold (a lease, a row lock,
 * SQLite's one writer), so the guard refuses only a row read before something else moved it: a queued step read in
 * a batch and cancelled meanwhile by its upstream's cancel is not cancelled a second time. The columns each change
 * sets are parameters where its callers differ.
 */

/** The states in which a worker holds a run (its lease); a worker claims one through src/store/job-leases.ts. */
export { LEASED_STATUSES } from './job-leases.js';
export type LeasedStatus = (typeof LEASED_STATUSES)[number];

async function move(
  tx: SqlExecutor,
  runId: string,
  from: readonly RunStatus[],
  to: RunStatus,
  assignments: string,
  params: readonly SqlParam[],
): Promise<boolean> {
  const { changes } = await tx.run(
    `UPDATE node_runs SET status = '${to}', ${assignments} WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
    [...params, runId, ...from],
  );
  return changes === 1;
}

/** running → cancel_requested: the worker is asked to stop; the run ends when it does (or its lease expires). */
export function requestCancel(tx: SqlExecutor, runId: string, now: number): Promise<boolean> {
  return move(tx, runId, ['running'], 'cancel_requested', 'cancel_requested_at = ?, updated_at = ?', [now, now]);
}

/** running or cancel_requested → succeeded: the worker finished; its lease ends. */
export function markSucceeded(
  tx: SqlExecutor,
  runId: string,
  set: { outputs: string; resources: string; now: number; charged: number },
): Promise<boolean> {
  return move(
    tx,
    runId,
    LEASED_STATUSES,
    'succeeded',
    `outputs = ?, resources = ?, progress_percent = 100, progress_message = 'done',
     lease_owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?, cost_charged = ?`,
    [set.outputs, set.resources, set.now, set.now, set.charged],
  );
}

/** A leased run → failed: its lease ends. */
export function markFailed(
  tx: SqlExecutor,
  runId: string,
  from: readonly LeasedStatus[],
  set: {
    error: { code: string; message: string };
    /** The run's resources, each marked failed (JSON). */
    resources: string;
    /** Shown as the run's progress; undefined leaves the message it had. */
    progressMessage?: string;
    now: number;
    charged: number;
  },
): Promise<boolean> {
  const progress = set.progressMessage === undefined ? [] : [set.progressMessage];
  return move(
    tx,
    runId,
    from,
    'failed',
    `error_code = ?, error_message = ?, resources = ?, ${progress.length ? 'progress_message = ?, ' : ''}
     lease_owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?, cost_charged = ?`,
    [set.error.code, set.error.message, set.resources, ...progress, set.now, set.now, set.charged],
  );
}

/** queued, running or cancel_requested → cancelled. */
export function markCancelled(
  tx: SqlExecutor,
  runId: string,
  from: readonly ('queued' | LeasedStatus)[],
  set: {
    /** The run's resources, each marked cancelled (JSON). */
    resources: string;
    /** Shown as the run's progress; undefined leaves the message it had. */
    progressMessage?: string;
    /** A worker held the run: its lease ends (lease_owner, lease_expires_at). A queued run's lease is left alone. */
    endLease: boolean;
    /** When the cancel was requested, for a run cancelled the moment it is asked (a queued one). */
    cancelRequestedAt?: number;
    now: number;
    charged: number;
  },
): Promise<boolean> {
  const progress = set.progressMessage === undefined ? [] : [set.progressMessage];
  const requested = set.cancelRequestedAt === undefined ? [] : [set.cancelRequestedAt];
  return move(
    tx,
    runId,
    from,
    'cancelled',
    `resources = ?, ${progress.length ? 'progress_message = ?, ' : ''}${set.endLease ? 'lease_owner = NULL, lease_expires_at = NULL, ' : ''}
     ${requested.length ? 'cancel_requested_at = ?, ' : ''}finished_at = ?, updated_at = ?, cost_charged = ?`,
    [set.resources, ...progress, ...requested, set.now, set.now, set.charged],
  );
}

/**
 * running → queued: back to the queue for another worker (a retry, a worker shutting down, a worker lost); its lease
 * ends and its progress is cleared.
 */
export function requeueRun(
  tx: SqlExecutor,
  runId: string,
  set: {
    progressMessage: string;
    /** The attempt did not count (the worker gave the run back without blaming it): the attempt counts down. */
    restoreAttempt: boolean;
    now: number;
  },
): Promise<boolean> {
  return move(
    tx,
    runId,
    ['running'],
    'queued',
    `${set.restoreAttempt ? 'attempt = attempt - 1, ' : ''}progress_percent = NULL, progress_message = ?,
     lease_owner = NULL, lease_expires_at = NULL, updated_at = ?`,
    [set.progressMessage, set.now],
  );
}
