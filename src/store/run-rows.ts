import { z } from 'zod';
import {
  NodeRun,
  RunOutput,
  RunResource,
  RunStatus,
  isTerminalRunStatus,
  RunReferenceInput,
  type RunReferences,
  type NodeRuntimeState,
} from '../contract/index.js';

/** node_runs rows ⇄ the contract's NodeRun record. */

export const RUN_COLUMNS = `id, project_id, canvas_id, node_id, operation, skill_id, status, input, input_hash,
  progress_percent, progress_message, outputs, resources, error_code, error_message, cost_estimated, cost_charged,
  triggered_kind, triggered_name, idempotency_key, attempt, max_attempts, lease_owner, lease_expires_at,
  created_at, started_at, finished_at, cancel_requested_at, updated_at, provider, chain_id, inputs_hash, references_used`;

const Millis = z.coerce.number().int();
const NullableMillis = Millis.nullable();
const NullableNumber = z.coerce.number().nullable();

export const RunRow = z.object({
  id: z.string(),
  project_id: z.string(),
  canvas_id: z.string(),
  node_id: z.string(),
  operation: z.string(),
  skill_id: z.string().nullable(),
  status: RunStatus,
  input: z.string(),
  input_hash: z.string(),
  progress_percent: NullableNumber,
  progress_message: z.string().nullable(),
  outputs: z.string(),
  resources: z.string(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  cost_estimated: z.coerce.number(),
  cost_charged: NullableNumber,
  triggered_kind: z.string(),
  triggered_name: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  attempt: z.coerce.number().int(),
  max_attempts: z.coerce.number().int(),
  lease_owner: z.string().nullable(),
  lease_expires_at: NullableMillis,
  created_at: Millis,
  started_at: NullableMillis,
  finished_at: NullableMillis,
  cancel_requested_at: NullableMillis,
  updated_at: Millis,
  provider: z.string().nullable(),
  chain_id: z.string().nullable(),
  inputs_hash: z.string().nullable(),
  references_used: NullableNumber,
});
export type RunRow = z.output<typeof RunRow>;

const iso = (millis: number): string => new Date(millis).toISOString();
const isoOrNull = (millis: number | null): string | null => (millis === null ? null : iso(millis));

export const RunOutputs = z.array(RunOutput);
export const RunResources = z.array(RunResource);

export function parseRunRow(row: unknown): RunRow {
  return RunRow.parse(row);
}

/** The authoritative record, validated against the contract on its way out. */
export function runRecord(row: RunRow): NodeRun {
  return NodeRun.parse({
    run_id: row.id,
    project_id: row.project_id,
    canvas_id: row.canvas_id,
    node_id: row.node_id,
    operation: row.operation,
    skill_id: row.skill_id,
    status: row.status,
    progress: { percent: row.progress_percent, message: row.progress_message },
    outputs: RunOutputs.parse(JSON.parse(row.outputs)),
    error: row.error_code !== null ? { code: row.error_code, message: row.error_message ?? '' } : null,
    cost: { unit: 'credits', estimated: row.cost_estimated, charged: row.cost_charged },
    triggered_by: { kind: row.triggered_kind, name: row.triggered_name },
    idempotency_key: row.idempotency_key,
    attempt: row.attempt,
    created_at: iso(row.created_at),
    started_at: isoOrNull(row.started_at),
    finished_at: isoOrNull(row.finished_at),
    cancel_requested_at: isoOrNull(row.cancel_requested_at),
    updated_at: iso(row.updated_at),
    provider: row.provider,
    chain_id: row.chain_id,
    ...referencesOf(row),
  });
}

/** What a run was given from the elements (its input) and whether its provider used it (null until it ends). */
function referencesOf(row: RunRow): { references?: RunReferences } {
  if (!row.input.includes('"references"')) return {};
  const given = RunReferenceInput.safeParse((JSON.parse(row.input) as { references?: unknown }).references);
  if (!given.success) return {};
  return {
    references: {
      elements: given.data.elements,
      images: given.data.asset_ids.length,
      used: row.references_used === null ? null : row.references_used === 1,
    },
  };
}

const EXTERNAL_STATUS = {
  queued: 'claimed',
  running: 'running',
  cancel_requested: 'cancel_requested',
  succeeded: null,
  failed: null,
  cancelled: null,
} as const satisfies Record<RunStatus, NodeRuntimeState['externalRunStatus']>;

/** A node's runtime state in get_canvas.node_states, from its latest run. */
export function runtimeState(row: RunRow): NodeRuntimeState {
  return {
    externalRunId: row.id,
    externalRunStatus: EXTERNAL_STATUS[row.status],
    lastRunStatus: row.status,
    isGenerating: !isTerminalRunStatus(row.status),
    progress: { percent: row.progress_percent, message: row.progress_message },
    outputs: RunOutputs.parse(JSON.parse(row.outputs)),
    resources: RunResources.parse(JSON.parse(row.resources)),
    generationError: row.status === 'failed' ? (row.error_message ?? 'generation failed') : null,
    generationStartedAt: row.started_at,
    updatedAt: iso(row.updated_at),
  };
}
