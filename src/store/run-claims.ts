import { z } from 'zod';
import { ASSET_STORAGES, type AssetStorage } from './records.js';
import { AssetKind as AssetKindSchema, type AssetKind, type RunOutput, type RunResource } from '../contract/index.js';
import { RUN_COLUMNS, RunResources, parseRunRow, type RunRow } from './run-rows.js';
import { ACTIVE_STATUSES, bumpStatesVersion } from './run-store.js';
import { RUN_EVENTS_CHANNEL, cancelWaitingRuns } from './run-cancel.js';
import { emitRunEvent } from './webhook-outbox.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/**
 * What workers do to runs: claim one, keep its lease alive, finish it. Every change after the claim is guarded by
 * the lease owner and the attempt number, so a worker that lost its lease (it stalled, or died and the run was
 * picked up again) can never complete a run: no run completes twice (docs/runs.md).
 */

export interface AssetRecord {
  id: string;
  /** The same id, as an asset store reads it (AssetLocation). */
  assetId: string;
  projectId: string;
  canvasId: string;
  runId: string;
  kind: AssetKind;
  mimeType: string;
  byteSize: number;
  /** Where the bytes are (src/assets/asset-store.ts), and under which key (null: a local file named after the id). */
  storage: AssetStorage;
  storageKey: string | null;
}

export type RunOutcome =
  | { status: 'succeeded'; outputs: RunOutput[]; assets: AssetRecord[]; charged: number }
  | { status: 'failed'; error: { code: string; message: string }; charged: number }
  | { status: 'cancelled'; charged: number }
  /** A retryable failure with attempts left: back to the queue for another worker. */
  | { status: 'retry'; message: string; charged: number };

export type HeartbeatAnswer = 'running' | 'cancel_requested' | 'lost';

export interface Lease {
  runId: string;
  workerId: string;
  attempt: number;
}

export interface Recovery {
  requeued: string[];
  failed: string[];
  cancelled: string[];
}

const StatusRow = z.object({ status: z.string() });
const AssetRow = z
  .object({
    id: z.string(),
    project_id: z.string(),
    canvas_id: z.string(),
    run_id: z.string(),
    kind: AssetKindSchema,
    mime_type: z.string(),
    byte_size: z.coerce.number(),
    storage: z.enum(ASSET_STORAGES),
    storage_key: z.string().nullable(),
  })
  .transform((row) => ({
    id: row.id,
    assetId: row.id,
    storage: row.storage,
    storageKey: row.storage_key,
    projectId: row.project_id,
    canvasId: row.canvas_id,
    runId: row.run_id,
    kind: row.kind,
    mimeType: row.mime_type,
    byteSize: row.byte_size,
  }));

function resourcesWith(row: RunRow, status: RunResource['status'], urls: Map<string, string> = new Map()): string {
  const resources = RunResources.parse(JSON.parse(row.resources));
  return JSON.stringify(
    resources.map((resource) => ({ ...resource, status, url: urls.get(resource.asset_id) ?? resource.url })),
  );
}

export function createRunClaims(driver: SqlDriver, clock: () => number) {
  const LEASED = "status IN ('running', 'cancel_requested') AND lease_owner = ? AND attempt = ?";

  async function leasedRow(tx: SqlExecutor, lease: Lease): Promise<RunRow | undefined> {
    const row = await tx.get(`SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ? AND ${LEASED}${driver.forUpdate}`, [
      lease.runId,
      lease.workerId,
      lease.attempt,
    ]);
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
        const candidate = await tx.get(
          // A step of a chain waits until every run it depends on has succeeded.
          `SELECT id FROM node_runs r WHERE status = 'queued'
             AND NOT EXISTS (SELECT 1 FROM run_dependencies d JOIN node_runs u ON u.id = d.depends_on
                             WHERE d.run_id = r.id AND u.status <> 'succeeded')
           ORDER BY created_at, seq, id LIMIT 1${driver.forUpdateSkipLocked}`,
        );
        if (!candidate) return undefined;
        const id = z.object({ id: z.string() }).parse(candidate).id;
        const now = clock();
        const { changes } = await tx.run(
          `UPDATE node_runs SET status = 'running', lease_owner = ?, lease_expires_at = ?, attempt = attempt + 1,
             started_at = COALESCE(started_at, ?), updated_at = ?, progress_percent = 0, progress_message = 'started'
           WHERE id = ? AND status = 'queued'`,
          [workerId, now + leaseMs, now, now, id],
        );
        if (changes === 0) return undefined;
        const row = parseRunRow(await tx.get(`SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ?`, [id]));
        await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
        await emitRunEvent(driver, tx, row.project_id, row.id, now);
        return row;
      });
    },

    /** Extends the lease and records progress; answers whether to go on, stop (cancel requested) or give up (lost). */
    heartbeat(
      lease: Lease,
      leaseMs: number,
      progress: { percent: number; message: string } | null,
    ): Promise<HeartbeatAnswer> {
      return driver.transaction(async (tx) => {
        const row = await leasedRow(tx, lease);
        if (!row) return 'lost';
        const now = clock();
        const changed =
          progress !== null && (progress.percent !== row.progress_percent || progress.message !== row.progress_message);
        await tx.run(
          'UPDATE node_runs SET lease_expires_at = ?, progress_percent = ?, progress_message = ?, updated_at = ? WHERE id = ?',
          [
            now + leaseMs,
            changed ? progress.percent : row.progress_percent,
            changed ? progress.message : row.progress_message,
            changed ? now : row.updated_at,
            lease.runId,
          ],
        );
        if (changed) await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
        return StatusRow.parse(row).status === 'cancel_requested' ? 'cancel_requested' : 'running';
      });
    },

    /**
     * Finishes a run the worker still holds; false when the lease was lost (nothing is changed then). `publish`
     * runs inside the transaction once the lease is confirmed, before the record changes: a worker that lost its
     * lease never publishes (docs/runs.md, "Assets").
     */
    complete(lease: Lease, outcome: RunOutcome & { provider?: string }, publish?: () => void): Promise<boolean> {
      return driver.transaction(async (tx) => {
        const row = await leasedRow(tx, lease);
        if (!row) return false;
        publish?.();
        const now = clock();
        const common = [now, now, outcome.charged, lease.runId];
        switch (outcome.status) {
          case 'succeeded': {
            const urls = new Map(outcome.outputs.map((output) => [output.asset_id, output.url]));
            await tx.run(
              `UPDATE node_runs SET status = 'succeeded', outputs = ?, resources = ?, progress_percent = 100, progress_message = 'done',
                 lease_owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?, cost_charged = ? WHERE id = ?`,
              [JSON.stringify(outcome.outputs), resourcesWith(row, 'ready', urls), ...common],
            );
            for (const asset of outcome.assets) {
              await tx.run(
                `INSERT INTO assets (id, project_id, canvas_id, run_id, kind, mime_type, byte_size, created_at, storage, storage_key)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
                [
                  asset.id,
                  asset.projectId,
                  asset.canvasId,
                  asset.runId,
                  asset.kind,
                  asset.mimeType,
                  asset.byteSize,
                  now,
                  asset.storage,
                  asset.storageKey,
                ],
              );
            }
            break;
          }
          case 'failed':
            await tx.run(
              `UPDATE node_runs SET status = 'failed', error_code = ?, error_message = ?, resources = ?, progress_message = 'failed',
                 lease_owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?, cost_charged = ? WHERE id = ?`,
              [outcome.error.code, outcome.error.message, resourcesWith(row, 'failed'), ...common],
            );
            break;
          case 'cancelled':
            await tx.run(
              `UPDATE node_runs SET status = 'cancelled', resources = ?, progress_message = 'cancelled',
                 lease_owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?, cost_charged = ? WHERE id = ?`,
              [resourcesWith(row, 'cancelled'), ...common],
            );
            break;
          case 'retry':
            if (row.status === 'cancel_requested') {
              // A cancel requested meanwhile wins: the run is not tried again.
              await tx.run(
                `UPDATE node_runs SET status = 'cancelled', resources = ?, progress_message = 'cancelled', lease_owner = NULL,
                   lease_expires_at = NULL, finished_at = ?, updated_at = ?, cost_charged = ? WHERE id = ?`,
                [resourcesWith(row, 'cancelled'), ...common],
              );
            } else {
              await tx.run(
                `UPDATE node_runs SET status = 'queued', progress_percent = NULL, progress_message = ?, lease_owner = NULL,
                   lease_expires_at = NULL, updated_at = ? WHERE id = ?`,
                [`retrying: ${outcome.message}`, now, lease.runId],
              );
            }
            break;
        }
        if (outcome.provider)
          await tx.run('UPDATE node_runs SET provider = ? WHERE id = ?', [outcome.provider, lease.runId]);
        if (outcome.status === 'succeeded') await announceWaitingRuns(tx, lease.runId);
        else if (outcome.status !== 'retry' || row.status === 'cancel_requested')
          await cancelWaitingRuns(driver, tx, lease.runId, now);
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
    release(lease: Lease): Promise<void> {
      return driver.transaction(async (tx) => {
        const row = await leasedRow(tx, lease);
        if (!row) return;
        const now = clock();
        if (row.status === 'cancel_requested') {
          await tx.run(
            `UPDATE node_runs SET status = 'cancelled', resources = ?, lease_owner = NULL, lease_expires_at = NULL,
               finished_at = ?, updated_at = ?, cost_charged = 0 WHERE id = ?`,
            [resourcesWith(row, 'cancelled'), now, now, lease.runId],
          );
          await cancelWaitingRuns(driver, tx, lease.runId, now);
        } else {
          await tx.run(
            `UPDATE node_runs SET status = 'queued', attempt = attempt - 1, lease_owner = NULL, lease_expires_at = NULL,
               progress_percent = NULL, progress_message = 'waiting for a worker', updated_at = ? WHERE id = ?`,
            [now, lease.runId],
          );
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
        const rows = (
          await tx.all(
            `SELECT ${RUN_COLUMNS} FROM node_runs WHERE status IN ('running', 'cancel_requested') AND lease_expires_at < ?${driver.forUpdateSkipLocked}`,
            [now],
          )
        ).map(parseRunRow);
        const recovery: Recovery = { requeued: [], failed: [], cancelled: [] };
        for (const row of rows) {
          if (row.status === 'cancel_requested') {
            await tx.run(
              `UPDATE node_runs SET status = 'cancelled', resources = ?, lease_owner = NULL, lease_expires_at = NULL,
                 finished_at = ?, updated_at = ?, cost_charged = 0 WHERE id = ?`,
              [resourcesWith(row, 'cancelled'), now, now, row.id],
            );
            await cancelWaitingRuns(driver, tx, row.id, now);
            recovery.cancelled.push(row.id);
          } else if (row.attempt < row.max_attempts) {
            await tx.run(
              `UPDATE node_runs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, progress_percent = NULL,
                 progress_message = 'worker lost; waiting for another', updated_at = ? WHERE id = ?`,
              [now, row.id],
            );
            recovery.requeued.push(row.id);
          } else {
            await tx.run(
              `UPDATE node_runs SET status = 'failed', error_code = 'worker_lost', error_message = ?, resources = ?,
                 lease_owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?, cost_charged = 0 WHERE id = ?`,
              [
                `The worker running this run stopped ${row.attempt} times; giving up.`,
                resourcesWith(row, 'failed'),
                now,
                now,
                row.id,
              ],
            );
            await cancelWaitingRuns(driver, tx, row.id, now);
            recovery.failed.push(row.id);
          }
          await bumpStatesVersion(driver, tx, row.project_id, row.canvas_id);
          await emitRunEvent(driver, tx, row.project_id, row.id, now);
        }
        return recovery;
      });
    },

    async getAsset(assetId: string): Promise<AssetRecord | undefined> {
      const row = await driver.get(
        'SELECT id, project_id, canvas_id, run_id, kind, mime_type, byte_size, storage, storage_key FROM assets WHERE id = ?',
        [assetId],
      );
      return row ? AssetRow.parse(row) : undefined;
    },

    /** Every asset, in id order (backup, admin assets migrate). */
    async listAssets(): Promise<AssetRecord[]> {
      const rows = await driver.all(
        'SELECT id, project_id, canvas_id, run_id, kind, mime_type, byte_size, storage, storage_key FROM assets ORDER BY id',
      );
      return rows.map((row) => AssetRow.parse(row));
    },

    /**
     * Points an asset's row at a new copy of its bytes (admin assets migrate, admin restore), only if the row still
     * names the copy that was read: false when something else moved it meanwhile.
     */
    async relocateAsset(
      assetId: string,
      from: { storage: AssetStorage; storageKey: string | null },
      to: { storage: AssetStorage; storageKey: string | null },
    ): Promise<boolean> {
      const result = await driver.run(
        'UPDATE assets SET storage = ?, storage_key = ? WHERE id = ? AND storage = ? AND storage_key IS NOT DISTINCT FROM ?',
        [to.storage, to.storageKey, assetId, from.storage, from.storageKey],
      );
      return result.changes === 1;
    },

    /** Which of these asset ids have a row (an asset store's sweep keeps their bytes), in one query per 500. */
    async knownAssetIds(assetIds: readonly string[]): Promise<ReadonlySet<string>> {
      const known = new Set<string>();
      for (let start = 0; start < assetIds.length; start += 500) {
        const batch = assetIds.slice(start, start + 500);
        const rows = await driver.all(`SELECT id FROM assets WHERE id IN (${batch.map(() => '?').join(', ')})`, batch);
        for (const row of rows) known.add(z.object({ id: z.string() }).parse(row).id);
      }
      return known;
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
