import type { CanvasNode, NodeRun, ResultVersion, ResultVersionList } from '../../contract/index.js';
import { RunOutputs, runRecord, type RunRow } from '../../store/run-rows.js';

/**
 * Result versions (docs/runs.md, "Result versions"): a node's succeeded runs, and what picking one writes.
 * A pick is an ordinary layout write: the node's `externalRunId` names the run, and the node type's result field
 * names its first output (image nodes: `committed_slot_url` and `committed_at`; audio and video nodes: `audioUrl`,
 * `videoUrl`), so history, the feed, undo and revert treat it like any other edit.
 */

const RESULT_FIELDS: Partial<Record<CanvasNode['type'], (url: string, at: string) => Record<string, unknown>>> = {
  imageNode: (url, at) => ({ committed_slot_url: url, committed_at: at }),
  imageGenNode: (url, at) => ({ committed_slot_url: url, committed_at: at }),
  exportImageNode: (url, at) => ({ committed_slot_url: url, committed_at: at }),
  audioNode: (url) => ({ audioUrl: url }),
  videoNode: (url) => ({ videoUrl: url }),
};

export function versionList(
  nodeId: string,
  runs: readonly RunRow[],
  pickedRunId: string | null,
  sign: (run: NodeRun) => NodeRun,
): ResultVersionList {
  const picked = pickedRunId !== null && runs.some((run) => run.id === pickedRunId) ? pickedRunId : null;
  const current = picked ?? runs.at(-1)?.id ?? null;
  const versions: ResultVersion[] = runs.map((row, index) => {
    const run = sign(runRecord(row));
    return {
      version: index + 1,
      run_id: run.run_id,
      finished_at: run.finished_at,
      triggered_by: run.triggered_by,
      cost: run.cost.charged,
      input_hash: row.input_hash,
      outputs: run.outputs,
      current: run.run_id === current,
    };
  });
  return { node_id: nodeId, current_run_id: current, picked: picked !== null, versions };
}

/** The node's data once `run` is its picked result. */
export function pickedData(node: CanvasNode, run: RunRow, at: Date): Record<string, unknown> {
  const first = RunOutputs.parse(JSON.parse(run.outputs))[0];
  const fields = first ? (RESULT_FIELDS[node.type]?.(first.url, at.toISOString()) ?? {}) : {};
  return { ...(node.data as Record<string, unknown>), externalRunId: run.id, ...fields };
}
