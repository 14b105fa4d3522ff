import { z } from 'zod';
import { CanvasId, NodeId, ProjectId, RunChainId, RunId } from './identifiers.js';
import { RunTrigger } from './node-data/common.js';
import { SkillId } from './node-data/skill.js';
import { RunReferences } from './elements.js';
import type { NodeType } from './node.js';

/**
 * The node run record. The spec says only that a run is identified by run_id and scoped to a project and a
 * canvas; the fields and states are our decision (docs/runs.md).
 */

export const RUN_STATUSES = ['queued', 'running', 'cancel_requested', 'succeeded', 'failed', 'cancelled'] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

export const TERMINAL_RUN_STATUSES = ['succeeded', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];
export type TerminalRunStatus = (typeof TERMINAL_RUN_STATUSES)[number];

export function isTerminalRunStatus(status: RunStatus): status is TerminalRunStatus {
  return (TERMINAL_RUN_STATUSES as readonly RunStatus[]).includes(status);
}

export const RunOperation = z.enum([
  'image_generation',
  'speech_generation',
  'music_generation',
  'script_generation',
  'skill',
  'storyboard_generation',
  'video_generation',
  'video_story',
  'video_composition',
  'world_generation',
  'audio_trim',
]);
export type RunOperation = z.infer<typeof RunOperation>;

/** The node types a run can be submitted for (docs/runs.md); a run of any other type is `not_runnable`. */
export const RUNNABLE_NODE_TYPES = [
  'imageNode',
  'imageGenNode',
  'audioNode',
  'audioTrimNode',
  'scriptNode',
  'skillNode',
  'storyboardGenNode',
  'videoNode',
  'videoStoryNode',
  'videoComposeNode',
  'threeDWorldNode',
] as const satisfies readonly NodeType[];

export function isRunnableNodeType(type: string): boolean {
  return (RUNNABLE_NODE_TYPES as readonly string[]).includes(type);
}

export const AssetKind = z.enum(['image', 'audio', 'video', 'model', 'json']);
export type AssetKind = z.infer<typeof AssetKind>;

export const RunOutput = z.strictObject({
  asset_id: z.string(),
  kind: AssetKind,
  url: z.string(),
  mime_type: z.string(),
});
export type RunOutput = z.infer<typeof RunOutput>;

/** Timestamps are ISO 8601 strings in UTC. */
const Timestamp = z.string();

// Loose at the top level: the spec says every tool output allows additional properties.
export const NodeRun = z
  .looseObject({
    run_id: RunId,
    project_id: ProjectId,
    canvas_id: CanvasId,
    node_id: NodeId,
    operation: RunOperation,
    skill_id: SkillId.nullable(),
    status: RunStatus,
    progress: z.strictObject({
      percent: z.number().min(0).max(100).nullable(),
      message: z.string().nullable(),
    }),
    outputs: z.array(RunOutput),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
    cost: z.strictObject({
      unit: z.literal('credits'),
      estimated: z.number().min(0),
      charged: z.number().min(0).nullable(),
    }),
    triggered_by: z.strictObject({ kind: RunTrigger, name: z.string().nullable() }),
    idempotency_key: z.string().nullable(),
    attempt: z.int().min(0),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
    cancel_requested_at: Timestamp.nullable(),
    updated_at: Timestamp,
    // Beyond the spec's record (its outputs allow additional properties): which provider ran it.
    version: z.int().min(1).nullable().optional().meta({
      description: 'Which result version of its node this run produced (1 = the first); null when it produced none.',
    }),
    provider: z.string().nullable().optional().meta({
      description: 'Who ran the last attempt: local, openai-images, openai-speech, replicate, fal; null before any.',
    }),
    chain_id: RunChainId.nullable().optional().meta({
      description: 'The downstream chain ("Run from here") this run is a step of; null for a run of one node.',
    }),
    references: RunReferences.optional().meta({
      description:
        "The project's elements linked to the node when the run was submitted and their reference pictures; absent when none.",
    }),
  })
  .meta({ id: 'NodeRun' });
export type NodeRun = z.infer<typeof NodeRun>;

export const CancelRunResult = z.looseObject({
  run_id: RunId,
  status: RunStatus.meta({
    description:
      'cancel_requested when the request was accepted for an active run (not proof that it stopped); ' +
      'otherwise the terminal status the run already had.',
  }),
  run: NodeRun,
});
export type CancelRunResult = z.infer<typeof CancelRunResult>;

/** What a run of a node would cost, and what the project has left: shown before a person starts a paid run. */
export const RunEstimate = z.looseObject({
  node_id: NodeId,
  operation: RunOperation,
  cost: z.strictObject({ unit: z.literal('credits'), estimated: z.number().min(0) }),
  budget: z.strictObject({
    credits: z.number().nullable().meta({ description: 'The project budget; null when it has none.' }),
    spent: z.number(),
    reserved: z.number().meta({ description: 'Estimates of the active runs of the project.' }),
    left: z.number().nullable(),
  }),
});
export type RunEstimate = z.infer<typeof RunEstimate>;
