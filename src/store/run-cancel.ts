import { RunResources, type RunRow } from './run-rows.js';
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
): Promise<{ changed: boolean; signalWorker: boolean }> {
  switch (row.status) {
    case 'queued': {
      const resources = RunResources.parse(JSON.parse(row.resources));
      await tx.run(
        `UPDATE node_runs SET status = 'cancelled', cancel_requested_at = ?, finished_at = ?, updated_at = ?,
           cost_charged = 0, resources = ?, progress_message = 'cancelled before it started' WHERE id = ?`,
        [now, now, now, JSON.stringify(resources.map((resource) => ({ ...resource, status: 'cancelled' }))), row.id],
      );
      await emitRunEvent(driver, tx, row.project_id, row.id, now);
      return { changed: true, signalWorker: false };
    }
    case 'running':
      await tx.run("UPDATE node_runs SET status = 'cancel_requested', cancel_requested_at = ?, updated_at = ? WHERE id = ?", [
        now,
        now,
        row.id,
      ]);
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
