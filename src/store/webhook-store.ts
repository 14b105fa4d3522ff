import { z } from 'zod';
import type { WebhookEventType } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { parseRows, type Actor } from './records.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import { WEBHOOK_CHANNEL } from './webhook-outbox.js';

/**
 * Webhook endpoints and their deliveries (migration 015). Endpoints are soft-deleted (their delivery log stays
 * readable); a delivery is claimed under a lease, so any number of servers on one PostgreSQL send each one once at a
 * time, and only the earliest pending delivery of an endpoint and canvas is ever claimed: one canvas's events arrive in
 * order, a failing one holding back those after it until it succeeds or is given up.
 */

export interface WebhookRecord {
  id: string;
  projectId: string;
  url: string;
  events: WebhookEventType[];
  allowPrivateNetwork: boolean;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: number | null;
  createdAt: number;
  updatedAt: number;
  /** Events not queued for this endpoint because it had its cap of pending deliveries. */
  droppedDeliveries: number;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  canvasId: string;
  type: WebhookEventType;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  createdAt: number;
  deliveredAt: number | null;
  /** When its retries started: the event, or the last redelivery by hand; with the attempts it had then. */
  retryFrom: number;
  retryBaseAttempts: number;
}

/** A claimed delivery with what sending it needs. */
export interface DueDelivery extends DeliveryRecord {
  hook: WebhookRecord;
}

export type DeliveryOutcome =
  | { delivered: true; status: number; latencyMs: number }
  | { delivered: false; status: number | null; error: string; latencyMs: number; retryAt: number | null };

const Millis = z.coerce.number().int();
const HookRow = z.object({
  id: z.string(),
  project_id: z.string(),
  url: z.string(),
  events: z.string(),
  allow_private_network: z.coerce.number(),
  secret_sealed: z.string(),
  previous_secret_sealed: z.string().nullable(),
  previous_secret_until: Millis.nullable(),
  created_at: Millis,
  updated_at: Millis,
  dropped_deliveries: z.coerce.number().int(),
});
const HOOK_COLUMNS =
  'id, project_id, url, events, allow_private_network, secret_sealed, previous_secret_sealed, previous_secret_until, created_at, updated_at, dropped_deliveries';
const DeliveryRow = z.object({
  id: z.string(),
  webhook_id: z.string(),
  canvas_id: z.string(),
  type: z.string(),
  body: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.coerce.number().int(),
  next_attempt_at: Millis,
  last_status: z.coerce.number().int().nullable(),
  last_error: z.string().nullable(),
  last_latency_ms: z.coerce.number().nullable(),
  created_at: Millis,
  delivered_at: Millis.nullable(),
  retry_from: Millis.nullable(),
  retry_base_attempts: z.coerce.number().int(),
});
const DELIVERY_COLUMNS =
  'id, webhook_id, canvas_id, type, body, status, attempts, next_attempt_at, last_status, last_error, last_latency_ms, created_at, delivered_at, retry_from, retry_base_attempts';

function hookRecord(row: z.output<typeof HookRow>): WebhookRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    allowPrivateNetwork: row.allow_private_network === 1,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretUntil: row.previous_secret_until,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    droppedDeliveries: row.dropped_deliveries,
  };
}

function deliveryRecord(row: z.output<typeof DeliveryRow>): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    canvasId: row.canvas_id,
    type: row.type as WebhookEventType,
    body: row.body,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    lastLatencyMs: row.last_latency_ms,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    retryFrom: row.retry_from ?? row.created_at,
    retryBaseAttempts: row.retry_base_attempts,
  };
}

export function createWebhookStore(driver: SqlDriver, clock: () => number) {
  async function hook(
    projectId: string,
    webhookId: string,
    executor: SqlExecutor = driver,
    lock = false,
  ): Promise<WebhookRecord> {
    const rows = parseRows(
      HookRow,
      await executor.all(
        `SELECT ${HOOK_COLUMNS} FROM webhooks WHERE id = ? AND project_id = ? AND deleted_at IS NULL${lock ? driver.forUpdate : ''}`,
        [webhookId, projectId],
      ),
    );
    if (!rows[0]) throw new CanvasError('not_found', `No webhook ${webhookId} in project ${projectId}.`);
    return hookRecord(rows[0]);
  }

  return {
    hook,

    /** Registers an endpoint; refused when the project already has `maxEndpoints` (counted under the project's lock). */
    async create(
      projectId: string,
      endpoint: { url: string; events: WebhookEventType[]; allowPrivateNetwork: boolean },
      secretSealed: string,
      by: Actor,
      maxEndpoints: number,
    ): Promise<WebhookRecord> {
      const id = newId('wh_');
      const now = clock();
      await driver.transaction(async (tx) => {
        await tx.get(`SELECT id FROM projects WHERE id = ?${driver.forUpdate}`, [projectId]);
        const row = await tx.get(
          'SELECT COUNT(*) AS endpoints FROM webhooks WHERE project_id = ? AND deleted_at IS NULL',
          [projectId],
        );
        if (Number(row?.endpoints ?? 0) >= maxEndpoints) {
          throw new CanvasError(
            'limit_exceeded',
            `Project ${projectId} already has ${maxEndpoints} webhook endpoints, the most this server allows: delete one first.`,
            { max_endpoints: maxEndpoints },
          );
        }
        await tx.run(
          `INSERT INTO webhooks (id, project_id, url, events, allow_private_network, secret_sealed, created_by_issuer, created_by_subject, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            projectId,
            endpoint.url,
            JSON.stringify(endpoint.events),
            endpoint.allowPrivateNetwork ? 1 : 0,
            secretSealed,
            by.issuer,
            by.subject,
            now,
            now,
          ],
        );
      });
      return hook(projectId, id);
    },

    async list(projectId: string): Promise<WebhookRecord[]> {
      const rows = parseRows(
        HookRow,
        await driver.all(
          `SELECT ${HOOK_COLUMNS} FROM webhooks WHERE project_id = ? AND deleted_at IS NULL ORDER BY created_at, id`,
          [projectId],
        ),
      );
      return rows.map(hookRecord);
    },

    async update(
      projectId: string,
      webhookId: string,
      change: {
        url?: string;
        events?: WebhookEventType[];
        allowPrivateNetwork?: boolean;
        rotation?: { secretSealed: string; previousUntil: number };
      },
    ): Promise<WebhookRecord> {
      // Read and written under the row's lock: two changes at once (a rotation among them) never undo each other.
      return driver.transaction(async (tx) => {
        const current = await hook(projectId, webhookId, tx, true);
        const rotation = change.rotation;
        await tx.run(
          `UPDATE webhooks SET url = ?, events = ?, allow_private_network = ?, secret_sealed = ?, previous_secret_sealed = ?, previous_secret_until = ?, updated_at = ?
           WHERE id = ? AND project_id = ? AND deleted_at IS NULL`,
          [
            change.url ?? current.url,
            JSON.stringify(change.events ?? current.events),
            (change.allowPrivateNetwork ?? current.allowPrivateNetwork) ? 1 : 0,
            rotation ? rotation.secretSealed : current.secretSealed,
            rotation ? current.secretSealed : current.previousSecretSealed,
            rotation ? rotation.previousUntil : current.previousSecretUntil,
            clock(),
            webhookId,
            projectId,
          ],
        );
        return hook(projectId, webhookId, tx);
      });
    },

    /** Deletes an endpoint: nothing more is sent to it; its pending deliveries are given up, its log stays. */
    async remove(projectId: string, webhookId: string): Promise<void> {
      await driver.transaction(async (tx) => {
        const now = clock();
        const { changes } = await tx.run(
          'UPDATE webhooks SET deleted_at = ? WHERE id = ? AND project_id = ? AND deleted_at IS NULL',
          [now, webhookId, projectId],
        );
        if (changes === 0) throw new CanvasError('not_found', `No webhook ${webhookId} in project ${projectId}.`);
        await tx.run(
          "UPDATE webhook_deliveries SET status = 'failed', last_error = 'the webhook was deleted', lease_owner = NULL WHERE webhook_id = ? AND status = 'pending'",
          [webhookId],
        );
      });
    },

    async deliveries(projectId: string, webhookId: string, limit: number): Promise<DeliveryRecord[]> {
      await hook(projectId, webhookId);
      const rows = parseRows(
        DeliveryRow,
        await driver.all(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, seq DESC LIMIT ?`,
          [webhookId, limit],
        ),
      );
      return rows.map(deliveryRecord);
    },

    /**
     * Sends a delivery again, under the same webhook-id (a receiver that already has it can drop it), retried as a new
     * one would be: for the give-up time from now, with the backoff starting over.
     */
    async redeliver(projectId: string, webhookId: string, deliveryId: string): Promise<DeliveryRecord> {
      await hook(projectId, webhookId);
      return driver.transaction(async (tx) => {
        const now = clock();
        const { changes } = await tx.run(
          `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, retry_from = ?, retry_base_attempts = attempts,
             lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND webhook_id = ?`,
          [now, now, deliveryId, webhookId],
        );
        if (changes === 0) throw new CanvasError('not_found', `No delivery ${deliveryId} of webhook ${webhookId}.`);
        await driver.notify(tx, WEBHOOK_CHANNEL, 'due');
        driver.signalLocal(WEBHOOK_CHANNEL);
        return deliveryRecord(
          DeliveryRow.parse(
            await tx.get(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`, [deliveryId]),
          ),
        );
      });
    },

    /**
     * Claims due deliveries for `worker` until `leaseMs` from now: each the earliest pending one of its endpoint and
     * canvas, and not held by another worker's live lease.
     */
    /**
     * Leases up to `limit` deliveries that are due: the first pending one of each endpoint and canvas, of endpoints
     * not in `busyWebhookIds` (those this worker already has enough deliveries in flight to).
     */
    async claimDue(
      worker: string,
      leaseMs: number,
      limit: number,
      busyWebhookIds: readonly string[] = [],
    ): Promise<DueDelivery[]> {
      return driver.transaction(async (tx) => {
        const now = clock();
        const notBusy =
          busyWebhookIds.length === 0 ? '' : `AND d.webhook_id NOT IN (${busyWebhookIds.map(() => '?').join(', ')})`;
        const ids = parseRows(
          z.object({ id: z.string() }),
          await tx.all(
            `SELECT d.id FROM webhook_deliveries d
             WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_expires_at IS NULL OR d.lease_expires_at < ?)
               AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.deleted_at IS NULL)
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                               WHERE e.webhook_id = d.webhook_id AND e.canvas_id = d.canvas_id AND e.status = 'pending' AND e.seq < d.seq)
               ${notBusy}
             ORDER BY d.next_attempt_at, d.seq LIMIT ?${driver.forUpdateSkipLocked}`,
            [now, now, ...busyWebhookIds, limit],
          ),
        ).map((row) => row.id);
        const due: DueDelivery[] = [];
        for (const id of ids) {
          await tx.run('UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id = ?', [
            worker,
            now + leaseMs,
            id,
          ]);
          const delivery = deliveryRecord(
            DeliveryRow.parse(await tx.get(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`, [id])),
          );
          const hookRow = HookRow.parse(
            await tx.get(`SELECT ${HOOK_COLUMNS} FROM webhooks WHERE id = ?`, [delivery.webhookId]),
          );
          due.push({ ...delivery, hook: hookRecord(hookRow) });
        }
        return due;
      });
    },

    /** Records an attempt of a delivery this worker holds; false when its lease was lost meanwhile. */
    async finish(deliveryId: string, worker: string, outcome: DeliveryOutcome): Promise<boolean> {
      const now = clock();
      const status = outcome.delivered ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending';
      const { changes } = await driver.run(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?, last_latency_ms = ?,
           next_attempt_at = ?, delivered_at = ?, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_owner = ?`,
        [
          status,
          outcome.status,
          outcome.delivered ? null : outcome.error,
          outcome.latencyMs,
          outcome.delivered || outcome.retryAt === null ? now : outcome.retryAt,
          outcome.delivered ? now : null,
          deliveryId,
          worker,
        ],
      );
      return changes > 0;
    },

    /** The time the next pending delivery falls due, if any (the dispatcher sleeps until then). */
    /**
     * When a delivery can next be claimed: only the first pending one of each endpoint and canvas counts (those
     * behind it wait for it), not before another worker's lease on it ends, and none of a deleted endpoint.
     */
    async nextDueAt(): Promise<number | null> {
      const row = z.object({ due: z.coerce.number().nullable() }).parse(
        await driver.get(
          `SELECT MIN(CASE WHEN d.lease_expires_at IS NOT NULL AND d.lease_expires_at > d.next_attempt_at THEN d.lease_expires_at ELSE d.next_attempt_at END) AS due
           FROM webhook_deliveries d
           WHERE d.status = 'pending'
             AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.deleted_at IS NULL)
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                             WHERE e.webhook_id = d.webhook_id AND e.canvas_id = d.canvas_id AND e.status = 'pending' AND e.seq < d.seq)`,
        ),
      );
      return row.due;
    },
  };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
