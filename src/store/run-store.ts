import type { NodeRun, RunOperation, RunResource, RunStatus, SkillId } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, canonicalJson, newId, sha256Hex } from '../shared/ids.js';
import { z } from 'zod';
import { RUN_COLUMNS, parseRunRow, runRecord, type RunRow } from './run-rows.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Node runs: submission, scoped reads, cancellation, and the latest run of each node for node_states. */

export interface NewRun {
  projectId: string;
  canvasId: string;
  nodeId: string;
  operation: RunOperation;
  skillId: SkillId | null;
  input: Record<string, unknown>;
  costEstimated: number;
  triggeredBy: { kind: 'user' | 'agent' | 'system'; name: string | null };
  idempotencyKey: string | null;
  resources: RunResource[];
  maxAttempts: number;
}

export interface CancelOutcome {
  /** cancel_requested when the request was accepted, else the terminal status the run already had. */
  status: RunStatus;
  run: NodeRun;
  /** True when a worker holds the run and must be told to stop. */
  signalWorker: boolean;
}

export const ACTIVE_STATUSES = "('queued', 'running', 'cancel_requested')";

/** The channel on which processes tell each other about runs: `queued:<run_id>` and `cancel:<run_id>`. */
export const RUN_EVENTS_CHANNEL = 'canvas_mcp_runs';

const SumRow = z.object({ reserved: z.coerce.number().nullable() });
const BudgetRow = z.object({ budget_credits: z.coerce.number().nullable(), spent_credits: z.coerce.number() });

export async function bumpStatesVersion(tx: SqlExecutor, projectId: string, canvasId: string): Promise<void> {
  await tx.run('UPDATE canvases SET states_version = states_version + 1 WHERE project_id = ? AND id = ?', [
    projectId,
    canvasId,
  ]);
}

const SeqRow = z.object({ seq: z.coerce.number().int() });

/** The canvas's next run sequence number; the UPDATE locks the canvas row, so concurrent submissions never share one. */
async function takeRunSeq(tx: SqlExecutor, projectId: string, canvasId: string): Promise<number> {
  await tx.run('UPDATE canvases SET next_run_seq = next_run_seq + 1 WHERE project_id = ? AND id = ?', [projectId, canvasId]);
  const row = await tx.get('SELECT next_run_seq - 1 AS seq FROM canvases WHERE project_id = ? AND id = ?', [projectId, canvasId]);
  return SeqRow.parse(row).seq;
}

export function createRunStore(driver: SqlDriver, clock: () => number) {
  async function selectRun(tx: SqlExecutor, projectId: string, canvasId: string, runId: string, lock = false) {
    const row = await tx.get(
      `SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ? AND project_id = ? AND canvas_id = ?${lock ? driver.forUpdate : ''}`,
      [runId, projectId, canvasId],
    );
    return row ? parseRunRow(row) : undefined;
  }

  async function checkBudget(tx: SqlExecutor, projectId: string, cost: number): Promise<void> {
    const project = BudgetRow.parse(
      await tx.get(`SELECT budget_credits, spent_credits FROM projects WHERE id = ?${driver.forUpdate}`, [projectId]),
    );
    if (project.budget_credits === null) return;
    const { reserved } = SumRow.parse(
      await tx.get(
        `SELECT SUM(cost_estimated) AS reserved FROM node_runs WHERE project_id = ? AND status IN ${ACTIVE_STATUSES}`,
        [projectId],
      ),
    );
    const left = project.budget_credits - project.spent_credits - (reserved ?? 0);
    if (cost > left) {
      throw new CanvasError(
        'budget_exceeded',
        `This run is estimated at ${cost} credits but project ${projectId} has ${Math.max(left, 0)} credits left of its budget.`,
        { estimated_cost: cost, credits_left: Math.max(left, 0), budget: project.budget_credits },
      );
    }
  }

  return {
    /** Creates a queued run, or returns the run already created with this idempotency key and input. */
    async createRun(run: NewRun): Promise<{ run: NodeRun; replayed: boolean }> {
      const inputHash = sha256Hex(canonicalJson({ node_id: run.nodeId, operation: run.operation, input: run.input }));
      return driver.transaction(async (tx) => {
        if (run.idempotencyKey !== null) {
          const existing = await tx.get(
            `SELECT ${RUN_COLUMNS} FROM node_runs WHERE project_id = ? AND canvas_id = ? AND idempotency_key = ?`,
            [run.projectId, run.canvasId, run.idempotencyKey],
          );
          if (existing) {
            const row = parseRunRow(existing);
            if (row.input_hash !== inputHash) {
              throw new CanvasError(
                'idempotency_mismatch',
                'This Idempotency-Key was already used for a different run submission; use a new key for a new run.',
                { idempotency_key: run.idempotencyKey, run_id: row.id },
              );
            }
            return { run: runRecord(row), replayed: true };
          }
        }
        await checkBudget(tx, run.projectId, run.costEstimated);
        const id = newId(ID_PREFIX.nodeRun);
        const now = clock();
        const seq = await takeRunSeq(tx, run.projectId, run.canvasId);
        await tx.run(
          `INSERT INTO node_runs (id, seq, project_id, canvas_id, node_id, operation, skill_id, status, input, input_hash,
             resources, cost_estimated, triggered_kind, triggered_name, idempotency_key, max_attempts, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            seq,
            run.projectId,
            run.canvasId,
            run.nodeId,
            run.operation,
            run.skillId,
            JSON.stringify(run.input),
            inputHash,
            JSON.stringify(run.resources),
            run.costEstimated,
            run.triggeredBy.kind,
            run.triggeredBy.name,
            run.idempotencyKey,
            run.maxAttempts,
            now,
            now,
          ],
        );
        await bumpStatesVersion(tx, run.projectId, run.canvasId);
        await driver.notify(tx, RUN_EVENTS_CHANNEL, `queued:${id}`);
        const created = await selectRun(tx, run.projectId, run.canvasId, id);
        return { run: runRecord(created!), replayed: false };
      });
    },

    async getRun(projectId: string, canvasId: string, runId: string): Promise<NodeRun | undefined> {
      const row = await selectRun(driver, projectId, canvasId, runId);
      return row ? runRecord(row) : undefined;
    },

    async getRunRow(runId: string): Promise<RunRow | undefined> {
      const row = await driver.get(`SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ?`, [runId]);
      return row ? parseRunRow(row) : undefined;
    },

    /**
     * A queued run is cancelled at once (it never starts and is never charged); a running run is marked
     * cancel_requested for its worker to act on; a terminal run is left as it is.
     */
    async requestCancel(projectId: string, canvasId: string, runId: string): Promise<CancelOutcome | undefined> {
      return driver.transaction(async (tx) => {
        const row = await selectRun(tx, projectId, canvasId, runId, true);
        if (!row) return undefined;
        const now = clock();
        switch (row.status) {
          case 'queued': {
            const resources = JSON.parse(row.resources) as RunResource[];
            await tx.run(
              `UPDATE node_runs SET status = 'cancelled', cancel_requested_at = ?, finished_at = ?, updated_at = ?,
                 cost_charged = 0, resources = ?, progress_message = 'cancelled before it started' WHERE id = ?`,
              [now, now, now, JSON.stringify(resources.map((resource) => ({ ...resource, status: 'cancelled' }))), runId],
            );
            break;
          }
          case 'running':
            await tx.run(
              "UPDATE node_runs SET status = 'cancel_requested', cancel_requested_at = ?, updated_at = ? WHERE id = ?",
              [now, now, runId],
            );
            await driver.notify(tx, RUN_EVENTS_CHANNEL, `cancel:${runId}`);
            break;
          case 'cancel_requested':
          case 'succeeded':
          case 'failed':
          case 'cancelled': {
            const status = row.status === 'cancel_requested' ? 'cancel_requested' : row.status;
            return { status, run: runRecord(row), signalWorker: row.status === 'cancel_requested' };
          }
        }
        await bumpStatesVersion(tx, projectId, canvasId);
        const updated = (await selectRun(tx, projectId, canvasId, runId))!;
        return { status: 'cancel_requested', run: runRecord(updated), signalWorker: row.status === 'running' };
      });
    },

    /** Subscribes to run events from every process (PostgreSQL); on SQLite nothing arrives and workers poll. */
    onRunEvent(handler: (event: { kind: 'queued' | 'cancel'; runId: string }) => void): Promise<() => Promise<void>> {
      return driver.listen(RUN_EVENTS_CHANNEL, (payload) => {
        const separator = payload.indexOf(':');
        const kind = payload.slice(0, separator);
        if (kind === 'queued' || kind === 'cancel') handler({ kind, runId: payload.slice(separator + 1) });
      });
    },

    /** The latest run of every node still on the canvas. */
    async latestRunsByNode(projectId: string, canvasId: string): Promise<RunRow[]> {
      const rows = await driver.all(
        `SELECT ${RUN_COLUMNS} FROM (
           SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.node_id ORDER BY r.seq DESC) AS position
           FROM node_runs r WHERE r.project_id = ? AND r.canvas_id = ?
         ) latest
         WHERE latest.position = 1 AND EXISTS (
           SELECT 1 FROM canvas_nodes n WHERE n.project_id = latest.project_id AND n.canvas_id = latest.canvas_id AND n.id = latest.node_id
         )
         ORDER BY latest.node_id`,
        [projectId, canvasId],
      );
      return rows.map(parseRunRow);
    },
  };
}

export type RunStore = ReturnType<typeof createRunStore>;
