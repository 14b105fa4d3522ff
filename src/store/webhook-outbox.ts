import { z } from 'zod';
import { LIMITS, type RevisionAuthor, type WebhookEventType } from '../contract/index.js';
import { newId } from '../shared/ids.js';
import { parseRows } from './records.js';
import { insertRow } from './row-statements.js';
import { RUN_COLUMNS, parseRunRow, runRecord } from './run-rows.js';
import type { SqlDriver, SqlExecutor, SqlRow } from './sql-driver.js';

/**
 * The webhook outbox (docs/runs.md, "Webhooks"): events become delivery rows inside the transaction that makes them, so
 * a delivery exists exactly when its event happened, and survives a restart. Nothing is written (one indexed read) when
 * the project has no webhook. Callers run this after the canvas row is locked (every such transaction takes it first),
 * and the canvas's event_seq orders the deliveries of one canvas.
 */

export const WEBHOOK_CHANNEL = 'canvas_mcp_webhooks';

const HookRow = z.object({ id: z.string(), events: z.string() });
const SeqRow = z.object({ seq: z.coerce.number().int() });

/**
 * The project's live endpoints as one row (a JSON array of `{id, events}`, or null), so a write can read them with its
 * other reads in one round trip (src/store/layout-writes/write-frame.ts). Both databases aggregate to JSON text.
 */
export const WEBHOOKS_OF_PROJECT = `SELECT COUNT(*) AS hooks, MIN(id) AS first_id, MIN(events) AS first_events
  FROM webhooks WHERE project_id = ? AND deleted_at IS NULL`;

type Hooks = Array<{ id: string; events: string[] }>;

/**
 * What WEBHOOKS_OF_PROJECT found: none (the usual case, decided without another read), exactly one, or "several",
 * which the caller reads in full (null).
 */
export function hooksOf(row: SqlRow | undefined): Hooks | null {
  const count = Number(row?.hooks ?? 0);
  if (count === 0) return [];
  if (count === 1) return [{ id: String(row!.first_id), events: JSON.parse(String(row!.first_events)) as string[] }];
  return null;
}

async function projectHooks(tx: SqlExecutor, projectId: string): Promise<Hooks> {
  const rows = parseRows(
    HookRow,
    await tx.all('SELECT id, events FROM webhooks WHERE project_id = ? AND deleted_at IS NULL', [projectId]),
  );
  return rows.map((row) => ({ id: row.id, events: JSON.parse(row.events) as string[] }));
}

/** Whether an endpoint already has its cap of pending deliveries (read through the pending index, at most the cap). */
async function atPendingCap(tx: SqlExecutor, webhookId: string): Promise<boolean> {
  const row = await tx.get(
    `SELECT COUNT(*) AS pending FROM (SELECT 1 FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending' LIMIT ?) capped`,
    [webhookId, LIMITS.pendingDeliveries],
  );
  return Number(row?.pending ?? 0) >= LIMITS.pendingDeliveries;
}

async function enqueue(
  driver: SqlDriver,
  tx: SqlExecutor,
  hooks: ReadonlyArray<{ id: string; events: string[] }>,
  event: { projectId: string; canvasId: string; type: WebhookEventType; data: unknown; now: number },
): Promise<void> {
  const wanting = hooks.filter((hook) => hook.events.length === 0 || hook.events.includes(event.type));
  if (wanting.length === 0) return;
  await tx.run('UPDATE canvases SET event_seq = event_seq + 1 WHERE project_id = ? AND id = ?', [
    event.projectId,
    event.canvasId,
  ]);
  const { seq } = SeqRow.parse(
    await tx.get('SELECT event_seq AS seq FROM canvases WHERE project_id = ? AND id = ?', [
      event.projectId,
      event.canvasId,
    ]),
  );
  const body = JSON.stringify({ type: event.type, timestamp: new Date(event.now).toISOString(), data: event.data });
  for (const hook of wanting) {
    if (await atPendingCap(tx, hook.id)) {
      await tx.run('UPDATE webhooks SET dropped_deliveries = dropped_deliveries + 1 WHERE id = ?', [hook.id]);
      continue;
    }
    await insertRow(tx, 'webhook_deliveries', {
      id: newId('msg_'),
      webhook_id: hook.id,
      project_id: event.projectId,
      canvas_id: event.canvasId,
      seq,
      type: event.type,
      body,
      status: 'pending',
      next_attempt_at: event.now,
      created_at: event.now,
    });
  }
  await driver.notify(tx, WEBHOOK_CHANNEL, 'due');
  driver.signalLocal(WEBHOOK_CHANNEL);
}

const RUN_EVENT_TYPES: Partial<Record<string, WebhookEventType>> = {
  queued: 'run.queued',
  running: 'run.running',
  succeeded: 'run.succeeded',
  failed: 'run.failed',
  cancelled: 'run.cancelled',
};

/** A run's status as it now is in `tx`, as an event (`cancel_requested` is no event: `run.cancelled` follows). */
export async function emitRunEvent(
  driver: SqlDriver,
  tx: SqlExecutor,
  projectId: string,
  runId: string,
  now: number,
): Promise<void> {
  const hooks = await projectHooks(tx, projectId);
  if (hooks.length === 0) return;
  const row = parseRunRow(await tx.get(`SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ?`, [runId]));
  const type = RUN_EVENT_TYPES[row.status];
  if (!type) return;
  await enqueue(driver, tx, hooks, { projectId, canvasId: row.canvas_id, type, data: runRecord(row), now });
}

/** A new layout revision as an event: which canvas, which revision, who made it and how (not its changes). */
export async function emitLayoutEvent(
  driver: SqlDriver,
  tx: SqlExecutor,
  revision: {
    projectId: string;
    canvasId: string;
    revision: number;
    author: RevisionAuthor;
    operation: string;
    now: number;
  },
  /** The project's endpoints when the write already read them (hooksOf), else they are read here. */
  known: Hooks | null = null,
): Promise<void> {
  const hooks = known ?? (await projectHooks(tx, revision.projectId));
  if (hooks.length === 0) return;
  const data = {
    project_id: revision.projectId,
    canvas_id: revision.canvasId,
    revision: revision.revision,
    operation: revision.operation,
    author: revision.author,
  };
  await enqueue(driver, tx, hooks, {
    projectId: revision.projectId,
    canvasId: revision.canvasId,
    type: 'layout.revision',
    data,
    now: revision.now,
  });
}

/**
 * A review event: a comment posted, a thread resolved, a review state set. `data` is what the receiver
 * needs to find it (ids, who, the state), never a guest's token or a person's address.
 */
export async function emitReviewEvent(
  driver: SqlDriver,
  tx: SqlExecutor,
  event: {
    projectId: string;
    canvasId: string;
    type: 'comment.created' | 'comment.resolved' | 'review.changed';
    data: Record<string, unknown>;
    now: number;
  },
): Promise<void> {
  const hooks = await projectHooks(tx, event.projectId);
  if (hooks.length === 0) return;
  await enqueue(driver, tx, hooks, {
    projectId: event.projectId,
    canvasId: event.canvasId,
    type: event.type,
    data: { project_id: event.projectId, canvas_id: event.canvasId, ...event.data },
    now: event.now,
  });
}
