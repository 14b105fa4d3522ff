import { z } from 'zod';
import { parseRows } from './records.js';
import { RUN_COLUMNS, parseRunRow, type RunRow } from './run-rows.js';
import type { SqlDriver } from './sql-driver.js';

/**
 * Result versions (docs/runs.md, "Result versions"): the succeeded runs of the node that now holds an id, oldest first.
 * They are the run records themselves, kept as they always were; nothing is copied.
 */
export interface VersionSummary {
  count: number;
  currentRunId: string;
  picked: boolean;
}

/** A node's succeeded runs (oldest first) and the inputs hash of the latest. */
export interface ResultHead {
  runIds: string[];
  lastInputsHash: string | null;
}

const BodyRow = z.object({ body: z.string() });

export function createVersionReads(driver: SqlDriver) {
  /** The run a node's data names as its picked result (`externalRunId`), if any. */
  async function pickedRunId(projectId: string, canvasId: string, nodeId: string): Promise<string | null> {
    const row = await driver.get('SELECT body FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?', [
      projectId,
      canvasId,
      nodeId,
    ]);
    if (!row) return null;
    const picked = (JSON.parse(BodyRow.parse(row).body) as { data?: { externalRunId?: unknown } }).data?.externalRunId;
    return typeof picked === 'string' ? picked : null;
  }

  return {
    async ofNode(projectId: string, canvasId: string, nodeId: string): Promise<RunRow[]> {
      const rows = await driver.all(
        `SELECT ${RUN_COLUMNS} FROM node_runs
         WHERE project_id = ? AND canvas_id = ? AND node_id = ? AND status = 'succeeded'
           AND node_seq = (SELECT seq FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?)
         ORDER BY seq`,
        [projectId, canvasId, nodeId, projectId, canvasId, nodeId],
      );
      return rows.map(parseRunRow);
    },

    /**
     * Per node of the canvas with a version: how many, and which is current (the one the node's `externalRunId`
     * names when it is one of them, else the latest).
     */
    async summaries(projectId: string, canvasId: string): Promise<Map<string, VersionSummary>> {
      const runs = parseRows(
        z.object({ id: z.string(), node_id: z.string() }),
        await driver.all(
          `SELECT r.id, r.node_id FROM node_runs r
           JOIN canvas_nodes n ON n.project_id = r.project_id AND n.canvas_id = r.canvas_id AND n.id = r.node_id AND n.seq = r.node_seq
           WHERE r.project_id = ? AND r.canvas_id = ? AND r.status = 'succeeded'
           ORDER BY r.seq`,
          [projectId, canvasId],
        ),
      );
      const byNode = new Map<string, string[]>();
      for (const run of runs) byNode.set(run.node_id, [...(byNode.get(run.node_id) ?? []), run.id]);
      const summaries = new Map<string, VersionSummary>();
      for (const [nodeId, ids] of byNode) {
        const picked = await pickedRunId(projectId, canvasId, nodeId);
        const current = picked !== null && ids.includes(picked) ? picked : ids.at(-1)!;
        summaries.set(nodeId, { count: ids.length, currentRunId: current, picked: current === picked });
      }
      return summaries;
    },

    pickedRunId,

    /**
     * Per node with a version (all of the canvas, or only `nodeIds`): its succeeded runs' ids, oldest first, and the
     * inputs hash of the latest, which a downstream chain compares to skip the node (src/runs/chain-plan.ts).
     */
    async heads(
      projectId: string,
      canvasId: string,
      nodeIds: readonly string[] | null,
    ): Promise<Map<string, ResultHead>> {
      if (nodeIds !== null && nodeIds.length === 0) return new Map();
      const only = nodeIds === null ? '' : ` AND r.node_id IN (${nodeIds.map(() => '?').join(', ')})`;
      const runs = parseRows(
        z.object({ id: z.string(), node_id: z.string(), inputs_hash: z.string().nullable() }),
        await driver.all(
          `SELECT r.id, r.node_id, r.inputs_hash FROM node_runs r
           JOIN canvas_nodes n ON n.project_id = r.project_id AND n.canvas_id = r.canvas_id AND n.id = r.node_id AND n.seq = r.node_seq
           WHERE r.project_id = ? AND r.canvas_id = ? AND r.status = 'succeeded'${only}
           ORDER BY r.seq`,
          [projectId, canvasId, ...(nodeIds ?? [])],
        ),
      );
      const heads = new Map<string, ResultHead>();
      for (const run of runs) {
        const head = heads.get(run.node_id) ?? { runIds: [], lastInputsHash: null };
        head.runIds.push(run.id);
        head.lastInputsHash = run.inputs_hash;
        heads.set(run.node_id, head);
      }
      return heads;
    },
  };
}

export type VersionReads = ReturnType<typeof createVersionReads>;
