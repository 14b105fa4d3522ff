import { RUN_COLUMNS, RunResources, parseRunRow, type RunRow } from './run-rows.js';
import { markCancelled, requestCancel } from './run-transitions.js';
import { emitRunEvent } from './webhook-outbox.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** The channel on which processes tell each other about runs: `queued:<run_id>` and `cancel:<run_id>`. */
export const RUN_EVENTS_CHANNEL = 'canvas_mcp_runs';

/**
 * Requests cancellation of one run inside the caller's transaction (the run row must be locked there). A queued run
 * is cancelled at once (it never starts and is never charged); a running run is marked cancel_requested for its
 * worker, which other processes hear through NOTIFY; a run already stopping or ended is left alone. The caller bumps
 * the canvas's states_version when `changed`.
 */
export async function requestRunCancel(
  driver: SqlDriver,
  tx: SqlExecutor,
  row: RunRow,
  now: number,
  why = 'cancelled before it started',
): Promise<{ changed: boolean; signalWorker: boolean }> {
  switch (row.status) {
    case 'queued': {
      const resources = RunResources.parse(JSON.parse(row.resources));
      const moved = await markCancelled(tx, row.id, ['queued'], {
        resources: JSON.stringify(resources.map((resource) => ({ ...resource, status: 'cancelled' }))),
        progressMessage: why,
        endLease: false,
        cancelRequestedAt: now,
        now,
        charged: 0,
      });
      if (!moved) return { changed: false, signalWorker: false };
      await emitRunEvent(driver, tx, row.project_id, row.id, now);
      await cancelWaitingRuns(driver, tx, row.id, now);
      return { changed: true, signalWorker: false };
    }
    case 'running':
      if (!(await requestCancel(tx, row.id, now))) return { changed: false, signalWorker: false };
      await driver.notify(tx, RUN_EVENTS_CHANNEL, `cancel:${row.id}`);
      return { changed: true, signalWorker: true };
    case 'cancel_requested':
      return { changed: false, signalWorker: true };
    case 'succeeded':
    case 'failed':
    case 'cancelled':
      return { changed: false, signalWorker: false };
  }
}

/**
 * A run ended without success (failed or cancelled): the queued runs of its chain that wait on it can never start,
 * so they are cancelled now, in the caller's transaction, and so on down the chain. Nothing is charged for them.
 */
export async function cancelWaitingRuns(
  driver: SqlDriver,
  tx: SqlExecutor,
  upstreamRunId: string,
  now: number,
): Promise<void> {
  const waiting = (
    await tx.all(
      `SELECT ${RUN_COLUMNS} FROM node_runs
       WHERE status = 'queued' AND id IN (SELECT run_id FROM run_dependencies WHERE depends_on = ?)
       ORDER BY seq${driver.forUpdate}`,
      [upstreamRunId],
    )
  ).map(parseRunRow);
  for (const row of waiting) {
    await requestRunCancel(driver, tx, row, now, `cancelled: the run it waited for (${upstreamRunId}) did not succeed`);
  }
}
