import { z } from 'zod';
import { Revision } from './canvas.js';
import { ClientSaveId, NodeId, RunId } from './identifiers.js';
import { RunTrigger } from './node-data/common.js';
import { NodeRun, RunOutput } from './node-run.js';

/**
 * Result versions (docs/runs.md, "Result versions"): every succeeded run of a node is a version of its
 * result. The node's current version is the latest unless a person or agent picked another; a pick is a layout write
 * (history, feed, revert) that names the run in the node's `externalRunId` and its first output in the type's result
 * field.
 */

export const ResultVersion = z.strictObject({
  version: z.int().min(1).meta({ description: '1 for the first succeeded run of this node, in order.' }),
  run_id: RunId,
  finished_at: z.string().nullable(),
  triggered_by: z.strictObject({ kind: RunTrigger, name: z.string().nullable() }),
  cost: z.number().nullable().meta({ description: 'Credits charged for it.' }),
  input_hash: z.string().meta({ description: 'Hash of what the run was given: equal hashes, equal inputs.' }),
  outputs: z.array(RunOutput),
  current: z.boolean(),
});
export type ResultVersion = z.infer<typeof ResultVersion>;

export const ResultVersionList = z.strictObject({
  node_id: NodeId,
  current_run_id: RunId.nullable(),
  picked: z.boolean().meta({
    description: 'True when a person or agent picked the current version; false when it is simply the latest.',
  }),
  versions: z.array(ResultVersion),
});
export type ResultVersionList = z.infer<typeof ResultVersionList>;

export const PickVersionBody = z.strictObject({
  base_revision: Revision,
  client_save_id: ClientSaveId.optional(),
});
export type PickVersionBody = z.infer<typeof PickVersionBody>;

/** "Run ×N": N variants of one node in one request, each its own run and version. */
export const RunVariantsBody = z.strictObject({
  count: z.int().min(2).max(8).meta({ description: 'How many variants (2 to 8).' }),
});
export type RunVariantsBody = z.infer<typeof RunVariantsBody>;

export const RunVariants = z.strictObject({ runs: z.array(NodeRun) });
