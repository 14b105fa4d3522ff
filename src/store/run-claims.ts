import { z } from 'zod';
import type { RunOutput, RunResource } from '../contract/index.js';
import { insertAssetRecord, type AssetRecord } from './asset-records.js';
import { RUN_COLUMNS, RunResources, parseRunRow, type RunRow } from './run-rows.js';
import { ACTIVE_STATUSES, bumpStatesVersion } from './run-store.js';
import { RUN_EVENTS_CHANNEL, cancelWaitingRuns } from './run-cancel.js';
import { jobLeases, type HeartbeatAnswer, type JobLease } from './job-leases.js';
import { LEASED_STATUSES, markCancelled, markFailed, markSucceeded, requeueRun } from './run-transitions.js';
import { emitRunEvent } from './webhook-outbox.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/**
 * What workers do to runs: claim one, keep its lease alive, finish it. Every change after the claim is guarded by
 * the lease owner and the attempt number, so a worker that lost its lease (it stalled, or died and the run was
 * picked up again) can never complete a run: no run completes twice (docs/runs.md).
 */

export type RunOutcome =
  | {
      status: 'succeeded';
      outputs: RunOutput[];
      assets: AssetRecord[];
      charged: number;
      /** Whether the provider used the reference pictures it was given; absent when it was given none. */
      referencesUsed?: boolean;
    }
  | { status: 'failed'; error: { code: string; message: string }; charged: number }
  | { status: 'cancelled'; charged: number }
  /** A retryable failure with attempts left: back to the queue for another worker. */
  | { status: 'retry'; message: string; charged: number };

export type { HeartbeatAnswer, JobLease } from './job-leases.js';

export interface Recovery {
  requeued: string[];
  failed: string[];
  cancelled: string[];
}

const StatusRow = z.object({ status: z.string() });

function resourcesWith(row: RunRow, status: RunResource['status'], urls: Map<string, string> = new Map()): string {
  const resources = RunResources.parse(JSON.parse(row.resources));
  return JSON.stringify(
    resources.map((resource) => ({ ...resource, status, url: urls.get(resource.asset_id) ?? resource.url })),
  );
}

export function createRunClaims(driver: SqlDriver, clock: () => number) {
  const leases = jobLeases(driver, { name: 'node_runs', order: 'j.created_at, j.seq, j.id' });

  async function leasedRow(tx: SqlExecutor, lease: JobLease): Promise<RunRow | undefined> {
    const row = await tx.get(
      `SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ? AND ${leases.guard()}${driver.forUpdate}`,
      [lease.jobId, ...leases.params(lease)],
    );
    return row ? parseRunRow(row) : undefined;
  }

  /** A run succeeded: the runs waiting on it may be claimable now; workers in other processes hear so. */
  async function announceWaitingRuns(tx: SqlExecutor, runId: string): Promise<void> {
    const waiting = await tx.all('SELECT run_id FROM run_dependencies WHERE depends_on = ?', [runId]);
    for (const row of waiting)
      await driver.notify(tx, RUN_EVENTS_CHANNEL, `queued:${z.object({ run_id: z.string() }).parse(row).run_id}`);
  }

  return {
    /** Takes the oldest queued run, or nothing. Safe with any number of workers and processes. */
    claimNext(workerId: string, leaseMs: number): Promise<RunRow | undefined> {
      return driver.transaction(async (tx) => {
        // A step of a chain waits until every run it depends on has succeeded.
        const id = await leases.nextQueued(
          tx,
          `NOT EXISTS (SELECT 1 FROM run_dependencies d JOIN node_runs u ON u.id = d.depends_on
                       WHERE d.run_id = j.id AND u.status <> 'succeeded')`,
        );
        if (!id) return undefined;
        const now = clock();
        const claimed = await leases.claim(
          tx,
          id,
          { workerId, expiresAt: now + leaseMs },
          {
            assignments:
              "started_at = COALESCE(started_at, ?), updated_at = ?, progress_percent = 0, progress_message = 'started'",
            params: [now, now],
          },
        );
        if (!claimed) return undefined;
        const row = parseRunRow(await tx.get(`SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ?`, [id]));
        await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
        await emitRunEvent(driver, tx, row.project_id, row.id, now);
        return row;
      });
    },

    /** Extends the lease and records progress; answers whether to go on, stop (cancel requested) or give up (lost). */
    heartbeat(
      lease: JobLease,
      leaseMs: number,
      progress: { percent: number; message: string } | null,
    ): Promise<HeartbeatAnswer> {
      return driver.transaction(async (tx) => {
        const row = await leasedRow(tx, lease);
        if (!row) return 'lost';
        const now = clock();
        const changed =
          progress !== null && (progress.percent !== row.progress_percent || progress.message !== row.progress_message);
        await leases.extend(tx, lease, now + leaseMs, {
          assignments: 'progress_percent = ?, progress_message = ?, updated_at = ?',
          params: [
            changed ? progress.percent : row.progress_percent,
            changed ? progress.message : row.progress_message,
            changed ? now : row.updated_at,
          ],
        });
        if (changed) await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
        return StatusRow.parse(row).status === 'cancel_requested' ? 'cancel_requested' : 'running';
      });
    },

    /**
     * Finishes a run the worker still holds; false when the lease was lost (nothing is changed then). `publish`
     * runs inside the transaction once the lease is confirmed, before the record changes: a worker that lost its
     * lease never publishes (docs/runs.md, "Assets").
     */
    complete(lease: JobLease, outcome: RunOutcome & { provider?: string }, publish?: () => void): Promise<boolean> {
      return driver.transaction(async (tx) => {
        const row = await leasedRow(tx, lease);
        if (!row) return false;
        publish?.();
        const now = clock();
        const charged = outcome.charged;
        let moved: boolean;
        switch (outcome.status) {
          case 'succeeded': {
            const urls = new Map(outcome.outputs.map((output) => [output.asset_id, output.url]));
            moved = await markSucceeded(tx, lease.jobId, {
              outputs: JSON.stringify(outcome.outputs),
              resources: resourcesWith(row, 'ready', urls),
              now,
              charged,
            });
            if (moved)
              for (const asset of outcome.assets) await insertAssetRecord(tx, { ...asset, runId: lease.jobId }, now);
            break;
          }
          case 'failed':
            moved = await markFailed(tx, lease.jobId, LEASED_STATUSES, {
              error: outcome.error,
              resources: resourcesWith(row, 'failed'),
              progressMessage: 'failed',
              now,
              charged,
            });
            break;
          case 'cancelled':
            moved = await markCancelled(tx, lease.jobId, LEASED_STATUSES, {
              resources: resourcesWith(row, 'cancelled'),
              progressMessage: 'cancelled',
              endLease: true,
              now,
              charged,
            });
            break;
          case 'retry':
            if (row.status === 'cancel_requested') {
              // A cancel requested meanwhile wins: the run is not tried again.
              moved = await markCancelled(tx, lease.jobId, ['cancel_requested'], {
                resources: resourcesWith(row, 'cancelled'),
                progressMessage: 'cancelled',
                endLease: true,
                now,
                charged,
              });
            } else {
              moved = await requeueRun(tx, lease.jobId, {
                progressMessage: `retrying: ${outcome.message}`,
                restoreAttempt: false,
                now,
              });
            }
            break;
        }
        // Never refused while the lease is held (the row is locked): a run another writer moved is not this worker's.
        if (!moved) return false;
        if (outcome.provider)
          await tx.run('UPDATE node_runs SET provider = ? WHERE id = ?', [outcome.provider, lease.jobId]);
        if (outcome.status === 'succeeded' && outcome.referencesUsed !== undefined)
          await tx.run('UPDATE node_runs SET references_used = ? WHERE id = ?', [
            outcome.referencesUsed ? 1 : 0,
            lease.jobId,
          ]);
        if (outcome.status === 'succeeded') await announceWaitingRuns(tx, lease.jobId);
        else if (outcome.status !== 'retry' || row.status === 'cancel_requested')
          await cancelWaitingRuns(driver, tx, lease.jobId, now);
        if (outcome.charged > 0) {
          await tx.run('UPDATE projects SET spent_credits = spent_credits + ? WHERE id = ?', [
            outcome.charged,
            row.project_id,
          ]);
        }
        await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
        await emitRunEvent(driver, tx, row.project_id, row.id, now);
        return true;
      });
    },

    /**
     * Gives a run back without blaming it (this worker is shutting down): queued again with its attempt restored,
     * or cancelled if a cancel was requested.
     */
    release(lease: JobLease): Promise<void> {
      return driver.transaction(async (tx) => {
        const row = await leasedRow(tx, lease);
        if (!row) return;
        const now = clock();
        if (row.status === 'cancel_requested') {
          const moved = await markCancelled(tx, lease.jobId, ['cancel_requested'], {
            resources: resourcesWith(row, 'cancelled'),
            endLease: true,
            now,
            charged: 0,
          });
          if (!moved) return;
          await cancelWaitingRuns(driver, tx, lease.jobId, now);
        } else {
          const moved = await requeueRun(tx, lease.jobId, {
            progressMessage: 'waiting for a worker',
            restoreAttempt: true,
            now,
          });
          if (!moved) return;
        }
        await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
        await emitRunEvent(driver, tx, row.project_id, row.id, now);
      });
    },

    /**
     * Runs whose worker stopped renewing its lease: picked up again while attempts remain, otherwise failed; a run
     * whose cancel was requested is cancelled. Nothing stays stuck.
     */
    recoverExpired(): Promise<Recovery> {
      return driver.transaction(async (tx) => {
        const now = clock();
        const rows = (await leases.expired(tx, now, { columns: RUN_COLUMNS })).map(parseRunRow);
        const recovery: Recovery = { requeued: [], failed: [], cancelled: [] };
        for (const row of rows) {
          if (row.status === 'cancel_requested') {
            const moved = await markCancelled(tx, row.id, ['cancel_requested'], {
              resources: resourcesWith(row, 'cancelled'),
              endLease: true,
              now,
              charged: 0,
            });
            if (!moved) continue;
            await cancelWaitingRuns(driver, tx, row.id, now);
            recovery.cancelled.push(row.id);
          } else if (row.attempt < row.max_attempts) {
            const moved = await requeueRun(tx, row.id, {
              progressMessage: 'worker lost; waiting for another',
              restoreAttempt: false,
              now,
            });
            if (!moved) continue;
            recovery.requeued.push(row.id);
          } else {
            const moved = await markFailed(tx, row.id, ['running'], {
              error: {
                code: 'worker_lost',
                message: `The worker running this run stopped ${row.attempt} times; giving up.`,
              },
              resources: resourcesWith(row, 'failed'),
              now,
              charged: 0,
            });
            if (!moved) continue;
            await cancelWaitingRuns(driver, tx, row.id, now);
            recovery.failed.push(row.id);
          }
          await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
          await emitRunEvent(driver, tx, row.project_id, row.id, now);
        }
        return recovery;
      });
    },

    /** Ids of runs that are queued or running, oldest first (diagnostics and tests). */
    async activeRunIds(): Promise<string[]> {
      const rows = await driver.all(
        `SELECT id FROM node_runs WHERE status IN ${ACTIVE_STATUSES} ORDER BY created_at, seq, id`,
      );
      return rows.map((row) => z.object({ id: z.string() }).parse(row).id);
    },
  };
}

export type RunClaims = ReturnType<typeof createRunClaims>;
