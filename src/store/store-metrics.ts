import { z } from 'zod';
import { RunStatus } from '../contract/index.js';
import type { DriverStats, SqlDriver } from './sql-driver.js';

/** Reads for /metrics: the run queue and the runs in flight, across every process on the store. */

const ActiveRunsRow = z.object({ status: RunStatus, operation: z.string(), count: z.coerce.number().int() });
const QueueRow = z.object({ depth: z.coerce.number().int(), oldest: z.coerce.number().int().nullable() });

export interface StoreMetrics extends DriverStats {
  /** Runs not yet finished (queued, running, cancel_requested), counted by status and operation. */
  activeRuns(): Promise<Array<{ status: RunStatus; operation: string; count: number }>>;
  /** Queued runs: how many, and when the oldest was queued (epoch ms, null when none). */
  runQueue(): Promise<{ depth: number; oldestQueuedAt: number | null }>;
}

export function createStoreMetrics(driver: SqlDriver): StoreMetrics {
  return {
    pool: () => driver.stats.pool(),
    onWriterWait: (listener) => driver.stats.onWriterWait(listener),
    notificationsReceived: () => driver.stats.notificationsReceived(),
    async activeRuns() {
      // The claim index (status, created_at) bounds this to the runs in flight, however many have finished.
      const rows = await driver.all(
        `SELECT status, operation, COUNT(*) AS count FROM node_runs WHERE status IN ('queued', 'running', 'cancel_requested')
         GROUP BY status, operation`,
      );
      return rows.map((row) => ActiveRunsRow.parse(row));
    },
    async runQueue() {
      const row = QueueRow.parse(
        await driver.get("SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM node_runs WHERE status = 'queued'"),
      );
      return { depth: row.depth, oldestQueuedAt: row.oldest };
    },
  };
}
