import type { NodeRun, RunOperation, RunResource, RunStatus, SkillId, CanvasRef } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, canonicalJson, newId, sha256Hex } from '../shared/ids.js';
import { z } from 'zod';
import { RUN_COLUMNS, RunOutputs, RunResources, parseRunRow, runRecord, type RunRow } from './run-rows.js';
import { insertAssetRecord, type AssetRecord } from './asset-records.js';
import { insertRow } from './row-statements.js';
import { emitRunEvent } from './webhook-outbox.js';
import { RUN_EVENTS_CHANNEL, requestRunCancel } from './run-cancel.js';
export { RUN_EVENTS_CHANNEL };
import { deferWrite } from './pipeline.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Node runs: submission, scoped reads, cancellation, and the latest run of each node for node_states. */

export interface NewRun {
  projectId: string;
  canvasId: string;
  nodeId: string;
  /** The node's creation sequence number: the run belongs to this incarnation of the id only. */
  nodeSeq: number;
  operation: RunOperation;
  skillId: SkillId | null;
  input: Record<string, unknown>;
  costEstimated: number;
  triggeredBy: { kind: 'user' | 'agent' | 'system'; name: string | null };
  idempotencyKey: string | null;
  resources: RunResource[];
  maxAttempts: number;
  /** A step of a downstream chain (src/runs/chain-plan.ts): its id chosen ahead, its chain, the runs it waits for. */
  id?: string;
  chainId?: string;
  dependsOn?: readonly string[];
  /** What the run was given including its upstream results; a later chain compares it to skip the node. */
  inputsHash?: string | null;
}

export interface ProjectBudget {
  /** Null when the project has no budget. */
  budget: number | null;
  spent: number;
  /** Estimates of the project's active runs. */
  reserved: number;
  left: number | null;
}

export interface CancelOutcome {
  /** cancel_requested when the request was accepted, else the terminal status the run already had. */
  status: RunStatus;
  run: NodeRun;
  /** True when a worker holds the run and must be told to stop. */
  signalWorker: boolean;
}

export const ACTIVE_STATUSES = "('queued', 'running', 'cancel_requested')";

const SumRow = z.object({ reserved: z.coerce.number().nullable() });
const BudgetRow = z.object({ budget_credits: z.coerce.number().nullable(), spent_credits: z.coerce.number() });

/** The channel on which processes tell each other that node states of a canvas changed: `<project_id>/<canvas_id>`. */
export const STATES_EVENTS_CHANNEL = 'canvas_mcp_states';

/** Run state of a canvas changed: its states_version moves on, and other processes hear it (PostgreSQL NOTIFY). */
export async function bumpStatesVersion(
  driver: SqlDriver,
  tx: SqlExecutor,
  projectId: string,
  canvasId: string,
): Promise<void> {
  await deferWrite(tx, 'UPDATE canvases SET states_version = states_version + 1 WHERE project_id = ? AND id = ?', [
    projectId,
    canvasId,
  ]);
  await driver.notify(tx, STATES_EVENTS_CHANNEL, `${projectId}/${canvasId}`);
}

const SeqRow = z.object({ seq: z.coerce.number().int() });

/** A finished run to copy, and its output assets: each already written under a new id (`record`). */
export interface RunResultCopy {
  run: RunRow;
  assets: Array<{ from: string; record: Omit<AssetRecord, 'projectId' | 'canvasId' | 'runId'> }>;
}

/** The canvas's next run sequence number; the UPDATE locks the canvas row, so concurrent submissions never share one. */
async function takeRunSeq(tx: SqlExecutor, projectId: string, canvasId: string): Promise<number> {
  await tx.run('UPDATE canvases SET next_run_seq = next_run_seq + 1 WHERE project_id = ? AND id = ?', [
    projectId,
    canvasId,
  ]);
  const row = await tx.get('SELECT next_run_seq - 1 AS seq FROM canvases WHERE project_id = ? AND id = ?', [
    projectId,
    canvasId,
  ]);
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

  /** The project's budget, what was charged, and what active runs hold in reserve. */
  async function budgetOf(executor: SqlExecutor, projectId: string, lock: boolean): Promise<ProjectBudget> {
    const project = BudgetRow.parse(
      await executor.get(
        `SELECT budget_credits, spent_credits FROM projects WHERE id = ?${lock ? driver.forUpdate : ''}`,
        [projectId],
      ),
    );
    const { reserved } = SumRow.parse(
      await executor.get(
        `SELECT SUM(cost_estimated) AS reserved FROM node_runs WHERE project_id = ? AND status IN ${ACTIVE_STATUSES}`,
        [projectId],
      ),
    );
    const held = reserved ?? 0;
    return {
      budget: project.budget_credits,
      spent: project.spent_credits,
      reserved: held,
      left: project.budget_credits === null ? null : Math.max(project.budget_credits - project.spent_credits - held, 0),
    };
  }

  async function checkBudget(tx: SqlExecutor, projectId: string, cost: number, what = 'This run'): Promise<void> {
    const budget = await budgetOf(tx, projectId, true);
    if (budget.left === null || cost <= budget.left) return;
    throw new CanvasError(
      'budget_exceeded',
      `${what} is estimated at ${cost} credits but project ${projectId} has ${budget.left} credits left of its budget.`,
      { estimated_cost: cost, credits_left: budget.left, budget: budget.budget },
    );
  }

  async function lockProject(tx: SqlExecutor, projectId: string): Promise<void> {
    await tx.get(`SELECT id FROM projects WHERE id = ?${driver.forUpdate}`, [projectId]);
  }

  /** Creates a queued run inside `tx`, or answers the run already created with this idempotency key and input. */
  async function insertRun(tx: SqlExecutor, run: NewRun): Promise<{ run: NodeRun; replayed: boolean }> {
    const inputHash = sha256Hex(canonicalJson({ node_id: run.nodeId, operation: run.operation, input: run.input }));
    if (run.idempotencyKey !== null) {
      // The project's row first (as the budget check takes it): two submissions with one key then take turns, and
      // the second sees the first's run instead of failing on the key's uniqueness (PostgreSQL).
      await lockProject(tx, run.projectId);
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
    const id = run.id ?? newId(ID_PREFIX.nodeRun);
    const now = clock();
    const seq = await takeRunSeq(tx, run.projectId, run.canvasId);
    // The canvas row is locked now: a delete of this node either committed before (refused here) or waits.
    const nodeStillThere = await tx.get(
      'SELECT 1 AS present FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ? AND seq = ?',
      [run.projectId, run.canvasId, run.nodeId, run.nodeSeq],
    );
    if (!nodeStillThere)
      throw new CanvasError('not_found', `No node with id ${JSON.stringify(run.nodeId)} on this canvas.`);
    await insertRow(tx, 'node_runs', {
      id,
      seq,
      project_id: run.projectId,
      canvas_id: run.canvasId,
      node_id: run.nodeId,
      node_seq: run.nodeSeq,
      operation: run.operation,
      skill_id: run.skillId,
      status: 'queued',
      input: JSON.stringify(run.input),
      input_hash: inputHash,
      resources: JSON.stringify(run.resources),
      cost_estimated: run.costEstimated,
      triggered_kind: run.triggeredBy.kind,
      triggered_name: run.triggeredBy.name,
      idempotency_key: run.idempotencyKey,
      max_attempts: run.maxAttempts,
      created_at: now,
      updated_at: now,
      chain_id: run.chainId ?? null,
      inputs_hash: run.inputsHash ?? null,
      progress_message: run.dependsOn?.length ? 'waiting for the runs before it in its chain' : null,
    });
    for (const upstream of run.dependsOn ?? []) {
      await tx.run('INSERT INTO run_dependencies (run_id, depends_on) VALUES (?, ?)', [id, upstream]);
    }
    await bumpStatesVersion(driver, tx, run.projectId, run.canvasId);
    await emitRunEvent(driver, tx, run.projectId, id, now);
    await driver.notify(tx, RUN_EVENTS_CHANNEL, `queued:${id}`);
    const created = await selectRun(tx, run.projectId, run.canvasId, id);
    return { run: runRecord(created!), replayed: false };
  }

  return {
    budget: (projectId: string) => budgetOf(driver, projectId, false),

    /** Creates a queued run inside a caller's transaction (a chain's steps, src/store/run-chain-store.ts). */
    insertIn: insertRun,
    /** Inside a caller's transaction: locks the project's row, and refuses `cost` beyond what its budget has left. */
    lockProjectIn: lockProject,
    checkBudgetIn: checkBudget,

    /** Creates a queued run, or returns the run already created with this idempotency key and input. */
    createRun(run: NewRun): Promise<{ run: NodeRun; replayed: boolean }> {
      return driver.transaction((tx) => insertRun(tx, run));
    },

    /**
     * Creates several runs at once (a node's variants): all of them or none, so a budget that covers only
     * some refuses the whole request. Each has its own idempotency key; a repeated request answers the same runs.
     */
    createRuns(runs: readonly NewRun[]): Promise<Array<{ run: NodeRun; replayed: boolean }>> {
      return driver.transaction(async (tx) => {
        const created: Array<{ run: NodeRun; replayed: boolean }> = [];
        for (const run of runs) created.push(await insertRun(tx, run));
        // Some of them made before and some not: the keys were used for another request (another count of variants).
        if (created.some((entry) => entry.replayed) && created.some((entry) => !entry.replayed)) {
          throw new CanvasError(
            'idempotency_mismatch',
            'This Idempotency-Key was already used for another number of runs; use a new key for a new request.',
            {
              idempotency_key: runs[0]?.idempotencyKey ?? null,
            },
          );
        }
        return created;
      });
    },

    async getRun(projectId: string, canvasId: string, runId: string): Promise<NodeRun | undefined> {
      const row = await selectRun(driver, projectId, canvasId, runId);
      return row ? runRecord(row) : undefined;
    },

    /** Whether a run of this canvas was already submitted with this idempotency key. */
    async keyUsed(projectId: string, canvasId: string, idempotencyKey: string): Promise<boolean> {
      return (
        (await driver.get(
          'SELECT 1 AS used FROM node_runs WHERE project_id = ? AND canvas_id = ? AND idempotency_key = ?',
          [projectId, canvasId, idempotencyKey],
        )) !== undefined
      );
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
        const outcome = await requestRunCancel(driver, tx, row, clock());
        if (!outcome.changed) {
          return { status: row.status, run: runRecord(row), signalWorker: outcome.signalWorker };
        }
        await bumpStatesVersion(driver, tx, projectId, canvasId);
        const updated = (await selectRun(tx, projectId, canvasId, runId))!;
        return { status: 'cancel_requested', run: runRecord(updated), signalWorker: outcome.signalWorker };
      });
    },

    /**
     * Subscribes to run events from every process (PostgreSQL); on SQLite nothing arrives and workers poll.
     * `onResync` runs when events may have been missed (the database came back).
     */
    onRunEvent(
      handler: (event: { kind: 'queued' | 'cancel'; runId: string }) => void,
      onResync?: () => void,
    ): Promise<() => Promise<void>> {
      return driver.listen(
        RUN_EVENTS_CHANNEL,
        (payload) => {
          const separator = payload.indexOf(':');
          const kind = payload.slice(0, separator);
          if (kind === 'queued' || kind === 'cancel') handler({ kind, runId: payload.slice(separator + 1) });
        },
        onResync,
      );
    },

    /**
     * Copies finished runs' records to another canvas (a duplicate "with run results"), in one transaction: each
     * lands on the copy's node of the same id as a succeeded run with the outputs given (assets already written under
     * new ids), charged nothing, keyed by nothing. A node the copy does not hold is skipped.
     */
    async copyResults(target: CanvasRef, copies: readonly RunResultCopy[]): Promise<number> {
      return driver.transaction(async (tx) => {
        let copied = 0;
        for (const { run, assets } of copies) {
          const node = SeqRow.optional().parse(
            await tx.get('SELECT seq FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?', [
              target.projectId,
              target.canvasId,
              run.node_id,
            ]),
          );
          if (!node) continue;
          const renamed = new Map(assets.map((asset) => [asset.from, asset.record]));
          const rename = <T extends { asset_id: string; url: string | null }>(item: T): T => {
            const record = renamed.get(item.asset_id);
            return record
              ? {
                  ...item,
                  asset_id: record.id,
                  url: item.url === null ? null : item.url.replace(item.asset_id, record.id),
                }
              : item;
          };
          const id = newId(ID_PREFIX.nodeRun);
          const seq = await takeRunSeq(tx, target.projectId, target.canvasId);
          await insertRow(tx, 'node_runs', {
            id,
            seq,
            project_id: target.projectId,
            canvas_id: target.canvasId,
            node_id: run.node_id,
            node_seq: node.seq,
            operation: run.operation,
            skill_id: run.skill_id,
            status: 'succeeded',
            input: run.input,
            input_hash: run.input_hash,
            progress_percent: 100,
            progress_message: 'done',
            outputs: JSON.stringify(RunOutputs.parse(JSON.parse(run.outputs)).map(rename)),
            resources: JSON.stringify(RunResources.parse(JSON.parse(run.resources)).map(rename)),
            cost_estimated: run.cost_estimated,
            cost_charged: 0,
            triggered_kind: run.triggered_kind,
            triggered_name: run.triggered_name,
            attempt: run.attempt,
            max_attempts: run.max_attempts,
            created_at: run.created_at,
            started_at: run.started_at,
            finished_at: run.finished_at,
            updated_at: clock(),
            provider: run.provider,
          });
          for (const { record } of assets) {
            await insertAssetRecord(
              tx,
              { ...record, projectId: target.projectId, canvasId: target.canvasId, runId: id },
              clock(),
            );
          }
          copied += 1;
        }
        if (copied > 0) await bumpStatesVersion(driver, tx, target.projectId, target.canvasId);
        return copied;
      });
    },

    /** These runs of the canvas, as stored (the versions people picked, for node_states). */
    async runRows(projectId: string, canvasId: string, runIds: readonly string[]): Promise<RunRow[]> {
      if (runIds.length === 0) return [];
      const rows = await driver.all(
        `SELECT ${RUN_COLUMNS} FROM node_runs WHERE project_id = ? AND canvas_id = ? AND id IN (${runIds.map(() => '?').join(', ')})`,
        [projectId, canvasId, ...runIds],
      );
      return rows.map(parseRunRow);
    },

    /** The latest run of every node on the canvas: only runs of the node that now holds the id (docs/runs.md). */
    async latestRunsByNode(projectId: string, canvasId: string): Promise<RunRow[]> {
      const rows = await driver.all(
        `SELECT ${RUN_COLUMNS} FROM (
           SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.node_id ORDER BY r.seq DESC) AS position
           FROM node_runs r
           JOIN canvas_nodes n ON n.project_id = r.project_id AND n.canvas_id = r.canvas_id AND n.id = r.node_id AND n.seq = r.node_seq
           WHERE r.project_id = ? AND r.canvas_id = ?
         ) latest
         WHERE latest.position = 1
         ORDER BY latest.node_id`,
        [projectId, canvasId],
      );
      return rows.map(parseRunRow);
    },
  };
}

export type RunStore = ReturnType<typeof createRunStore>;
