import { z } from 'zod';
import { NodeId, RunChainId, RunId } from './identifiers.js';
import { RunTrigger } from './node-data/common.js';
import { RunOperation, RunStatus } from './node-run.js';

/**
 * "Run from here" (docs/runs.md, "Downstream chains"): a node and every node downstream of it along edges,
 * in dependency order, each step its own node run. A step whose inputs (its data and its upstream results) are
 * unchanged since the node's last success is cached: no run, nothing charged, the earlier result stands.
 */

const Credits = z.number().min(0);

export const ChainStepEstimate = z.strictObject({
  node_id: NodeId,
  operation: RunOperation,
  cached: z
    .boolean()
    .meta({ description: "True when the node's inputs are unchanged since its last success: it will not run." }),
  cached_run_id: RunId.nullable().meta({ description: 'The earlier run whose result stands, when cached.' }),
  cost: Credits.meta({ description: 'Credits this step is estimated at; 0 when cached.' }),
  waits_for: z.array(NodeId).meta({ description: 'The steps of this chain that must succeed before this one starts.' }),
});
export type ChainStepEstimate = z.infer<typeof ChainStepEstimate>;

export const ChainEstimate = z.strictObject({
  root_node_id: NodeId,
  steps: z.array(ChainStepEstimate),
  cost: z.strictObject({ unit: z.literal('credits'), estimated: Credits }),
  budget: z.strictObject({
    credits: z.number().nullable().meta({ description: 'The project budget; null when it has none.' }),
    spent: z.number(),
    reserved: z.number(),
    left: z.number().nullable(),
  }),
  fits_budget: z
    .boolean()
    .meta({ description: 'False when starting the chain would be refused with budget_exceeded.' }),
});
export type ChainEstimate = z.infer<typeof ChainEstimate>;

export const ChainStepStatus = z.enum(['cached', ...RunStatus.options]);
export type ChainStepStatus = z.infer<typeof ChainStepStatus>;

export const RunChainStep = z.strictObject({
  node_id: NodeId,
  status: ChainStepStatus,
  run_id: RunId.nullable().meta({ description: 'The run started for this step; null when cached.' }),
  cached_run_id: RunId.nullable(),
  cost: z.strictObject({ estimated: Credits, charged: Credits.nullable() }),
  waits_for: z.array(NodeId),
});
export type RunChainStep = z.infer<typeof RunChainStep>;

export const RunChain = z
  .strictObject({
    chain_id: RunChainId,
    root_node_id: NodeId,
    status: z.enum(['active', 'succeeded', 'failed', 'cancelled']).meta({
      description:
        'active while a step is queued or running; otherwise failed when a step failed, cancelled when one was cancelled, else succeeded.',
    }),
    steps: z.array(RunChainStep),
    cost: z.strictObject({ unit: z.literal('credits'), estimated: Credits, charged: Credits }),
    triggered_by: z.strictObject({ kind: RunTrigger, name: z.string().nullable() }),
    idempotency_key: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'RunChain' });
export type RunChain = z.infer<typeof RunChain>;
