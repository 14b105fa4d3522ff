import { z } from 'zod';
import type { RunChain, RunChainStep } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { RUN_COLUMNS, parseRunRow, type RunRow } from './run-rows.js';
import { requestRunCancel } from './run-cancel.js';
import { insertRow } from './row-statements.js';
import { ACTIVE_STATUSES, bumpStatesVersion, type NewRun, type RunStore } from './run-store.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/**
 * Downstream chains ("Run from here"; migration 016): the chain row names its steps, and each step that
 * runs is an ordinary node run carrying the chain id and the runs it waits for. Everything of a chain is written in
 * one transaction, so the budget covers all of its runs or the chain is refused whole.
 */

export interface StoredChainStep {
  node_id: string;
  run_id: string | null;
  cached_run_id: string | null;
  waits_for: string[];
}

export interface NewChain {
  id: string;
  projectId: string;
  canvasId: string;
  rootNodeId: string;
  steps: StoredChainStep[];
  idempotencyKey: string | null;
  triggeredBy: { kind: 'user' | 'agent' | 'system'; name: string | null };
}

const StoredStep = z.object({
  node_id: z.string(),
  run_id: z.string().nullable(),
  cached_run_id: z.string().nullable(),
  waits_for: z.array(z.string()),
});
const ChainRow = z.object({
  id: z.string(),
  root_node_id: z.string(),
  steps: z.string().transform((text) => z.array(StoredStep).parse(JSON.parse(text))),
  idempotency_key: z.string().nullable(),
  triggered_kind: z.enum(['user', 'agent', 'system']),
  triggered_name: z.string().nullable(),
  created_at: z.coerce.number(),
});
type ChainRow = z.output<typeof ChainRow>;
const CHAIN_COLUMNS = 'id, root_node_id, steps, idempotency_key, triggered_kind, triggered_name, created_at';

/** The chain's record: each step's status is that of its run, or cached. */
export function chainRecord(row: ChainRow, runs: readonly RunRow[]): RunChain {
  const byId = new Map(runs.map((run) => [run.id, run]));
  const steps: RunChainStep[] = row.steps.map((step) => {
    const run = step.run_id ? byId.get(step.run_id) : undefined;
    return {
      node_id: step.node_id,
      status: run ? run.status : 'cached',
      run_id: step.run_id,
      cached_run_id: step.cached_run_id,
      cost: { estimated: run?.cost_estimated ?? 0, charged: run ? run.cost_charged : 0 },
      waits_for: step.waits_for,
    };
  });
  const statuses = new Set(steps.map((step) => step.status));
  const active = ['queued', 'running', 'cancel_requested'].some((status) =>
    statuses.has(status as RunChainStep['status']),
  );
  return {
    chain_id: row.id,
    root_node_id: row.root_node_id,
    status: active
      ? 'active'
      : statuses.has('failed')
        ? 'failed'
        : statuses.has('cancelled')
          ? 'cancelled'
          : 'succeeded',
    steps,
    cost: {
      unit: 'credits',
      estimated: steps.reduce((sum, step) => sum + step.cost.estimated, 0),
      charged: steps.reduce((sum, step) => sum + (step.cost.charged ?? 0), 0),
    },
    triggered_by: { kind: row.triggered_kind, name: row.triggered_name },
    idempotency_key: row.idempotency_key,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export function createRunChainStore(driver: SqlDriver, clock: () => number, runs: RunStore) {
  async function read(projectId: string, canvasId: string, chainId: string): Promise<RunChain | undefined> {
    const row = await driver.get(
      `SELECT ${CHAIN_COLUMNS} FROM run_chains WHERE project_id = ? AND canvas_id = ? AND id = ?`,
      [projectId, canvasId, chainId],
    );
    if (!row) return undefined;
    const chainRuns = (
      await driver.all(`SELECT ${RUN_COLUMNS} FROM node_runs WHERE chain_id = ? AND project_id = ? AND canvas_id = ?`, [
        chainId,
        projectId,
        canvasId,
      ])
    ).map(parseRunRow);
    return chainRecord(ChainRow.parse(row), chainRuns);
  }

  /** The chain this key already made from this root (refused when it made one from another root), if any. */
  async function keyedChain(
    executor: SqlExecutor,
    chain: Pick<NewChain, 'projectId' | 'canvasId' | 'rootNodeId' | 'idempotencyKey'>,
  ): Promise<string | undefined> {
    if (chain.idempotencyKey === null) return undefined;
    const existing = await executor.get(
      `SELECT ${CHAIN_COLUMNS} FROM run_chains WHERE project_id = ? AND canvas_id = ? AND idempotency_key = ?`,
      [chain.projectId, chain.canvasId, chain.idempotencyKey],
    );
    if (!existing) return undefined;
    const row = ChainRow.parse(existing);
    if (row.root_node_id !== chain.rootNodeId) {
      throw new CanvasError(
        'idempotency_mismatch',
        'This Idempotency-Key was already used for a chain from another node; use a new key for a new chain.',
        {
          idempotency_key: chain.idempotencyKey,
          chain_id: row.id,
        },
      );
    }
    return row.id;
  }

  return {
    read,

    /** The chain a repeated request (the same key from the same root) answers, before anything is planned again. */
    async replay(
      chain: Pick<NewChain, 'projectId' | 'canvasId' | 'rootNodeId' | 'idempotencyKey'>,
    ): Promise<RunChain | undefined> {
      const chainId = await keyedChain(driver, chain);
      return chainId === undefined ? undefined : read(chain.projectId, chain.canvasId, chainId);
    },

    /**
     * Writes the chain and its runs, or answers the chain already made with this idempotency key (the same root:
     * a different root under the same key is refused). The budget must cover every step that runs.
     */
    async create(chain: NewChain, stepRuns: readonly NewRun[]): Promise<{ chain: RunChain; replayed: boolean }> {
      const outcome = await driver.transaction(async (tx) => {
        // The project's row first: two requests with one key take turns, and the second answers the first's chain.
        await runs.lockProjectIn(tx, chain.projectId);
        const existing = await keyedChain(tx, chain);
        if (existing !== undefined) return { chainId: existing, replayed: true };
        const total = Math.round(stepRuns.reduce((sum, run) => sum + run.costEstimated, 0) * 100) / 100;
        await runs.checkBudgetIn(
          tx,
          chain.projectId,
          total,
          `This chain (${stepRuns.length} ${stepRuns.length === 1 ? 'run' : 'runs'})`,
        );
        for (const run of stepRuns) await runs.insertIn(tx, run);
        await insertRow(tx, 'run_chains', {
          id: chain.id,
          project_id: chain.projectId,
          canvas_id: chain.canvasId,
          root_node_id: chain.rootNodeId,
          steps: JSON.stringify(chain.steps),
          idempotency_key: chain.idempotencyKey,
          triggered_kind: chain.triggeredBy.kind,
          triggered_name: chain.triggeredBy.name,
          created_at: clock(),
        });
        return { chainId: chain.id, replayed: false };
      });
      return { chain: (await read(chain.projectId, chain.canvasId, outcome.chainId))!, replayed: outcome.replayed };
    },

    /**
     * One cancel for the whole chain: its queued steps are cancelled at once, its running ones asked to stop. Answers
     * the runs whose workers must be told, or undefined when there is no such chain.
     */
    async cancel(
      projectId: string,
      canvasId: string,
      chainId: string,
    ): Promise<{ chain: RunChain; signalRuns: string[] } | undefined> {
      const signalRuns = await driver.transaction(async (tx) => {
        const exists = await tx.get('SELECT id FROM run_chains WHERE project_id = ? AND canvas_id = ? AND id = ?', [
          projectId,
          canvasId,
          chainId,
        ]);
        if (!exists) return undefined;
        const active = (
          await tx.all(
            `SELECT ${RUN_COLUMNS} FROM node_runs WHERE chain_id = ? AND status IN ${ACTIVE_STATUSES} ORDER BY seq${driver.forUpdate}`,
            [chainId],
          )
        ).map(parseRunRow);
        const signal: string[] = [];
        const now = clock();
        let changed = false;
        for (const row of active) {
          // A queued step may have been cancelled already by its upstream's cancel, in this same loop.
          const current = parseRunRow(await tx.get(`SELECT ${RUN_COLUMNS} FROM node_runs WHERE id = ?`, [row.id]));
          const outcome = await requestRunCancel(
            driver,
            tx,
            current,
            now,
            'cancelled with its chain before it started',
          );
          changed ||= outcome.changed;
          if (outcome.signalWorker) signal.push(row.id);
        }
        if (changed) await bumpStatesVersion(driver, tx, projectId, canvasId);
        return signal;
      });
      if (!signalRuns) return undefined;
      return { chain: (await read(projectId, canvasId, chainId))!, signalRuns };
    },
  };
}

export type RunChainStore = ReturnType<typeof createRunChainStore>;
