import type {
  AssetKind,
  CanvasNode,
  RunFrames,
  RunOperation,
  RunReferenceInput,
  RunResource,
  SkillId,
} from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, newId } from '../shared/ids.js';

/**
 * What running a node means (docs/runs.md): the operation derived from the node's type, the input taken from
 * its data at submission, the estimated cost in credits, and the assets it will produce (listed as pending
 * resources from the start).
 */

export interface RunPlan {
  operation: RunOperation;
  skillId: SkillId | null;
  input: Record<string, unknown>;
  costEstimated: number;
  outputs: Array<{ kind: AssetKind }>;
}

const IMAGE_SIZE_CREDITS = { '0.5K': 0.5, '1K': 1, '2K': 2, '4K': 4 } as const;

const SKILL_OUTPUT: Record<SkillId, { kind: AssetKind; credits: number }> = {
  'zone.sketch_from_context': { kind: 'image', credits: 1 },
  'zone.sketch_from_director_combined': { kind: 'image', credits: 1 },
  'zone.frame_from_context': { kind: 'image', credits: 2 },
  'zone.set_selected_background': { kind: 'json', credits: 0.25 },
  'zone.set_director_combined': { kind: 'json', credits: 0.25 },
  'zone.scene_360': { kind: 'image', credits: 4 },
  'agent.review_frame': { kind: 'json', credits: 0.5 },
  'workflow.plan_beat_graph': { kind: 'json', credits: 0.5 },
};

function definedEntries(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** What a run may read beyond its node: the audio it trims, the clips it composes (assets of this server). */
export interface RunContext {
  /** The asset id behind a URL of this server (`/assets/asset_…`, relative or absolute), or null. */
  assetIdOf(url: string | null | undefined): string | null;
  /** The audio asset a trim node takes its input from: that of the audio node connected to it. */
  sourceAudioAssetId: string | null;
  /** The elements linked to the node and their reference pictures (src/runs/run-references.ts), or none. */
  references?: RunReferenceInput | null;
  /** A video run of a shot: its first and last frames (src/runs/shot-frames.ts), or none. */
  frames?: RunFrames | null;
}

export const NO_CONTEXT: RunContext = { assetIdOf: () => null, sourceAudioAssetId: null };

const ASSET_URL = /\/assets\/(asset_[A-Za-z0-9_-]{16})$/;

export function assetIdOfUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const path = url.split(/[?#]/, 1)[0]!;
  return ASSET_URL.exec(path)?.[1] ?? null;
}

const SECOND = 1000;
/** A generated clip (videoNode) is short: the local provider renders a few seconds, not a film. */
const MAX_CLIP_MS = 8 * SECOND;
/** The shortest clip or shot: a few frames (4.8 at 24 fps), so every shot is seen, however short it was written. */
const MIN_CLIP_MS = 200;
const clampMs = (value: number | null | undefined, fallback: number) =>
  Math.round(Math.min(Math.max(value ?? fallback, MIN_CLIP_MS), MAX_CLIP_MS));

/**
 * A video story renders as an animatic of its shots as written (docs/deliverables.md, "Animatic"): never cut to fit.
 * One too large to render within a run's time limit (docs/runs.md, "Execution") is refused instead, naming what is
 * too large.
 */
const MAX_STORY_MS = 30 * 60 * SECOND;
const MAX_STORY_SHOTS = 500;

/** A length as people read it: m:ss, or h:mm:ss; seconds rounded up, so a story just over the limit never reads as it. */
function clock(ms: number): string {
  // Shots of absurd lengths can add up past what a double holds.
  if (!Number.isFinite(ms)) return 'too long to measure';
  const total = Math.ceil(ms / SECOND);
  const two = (value: number) => String(value).padStart(2, '0');
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

function notRunnable(node: CanvasNode, why: string): CanvasError {
  return new CanvasError('not_runnable', `This ${node.type} cannot run: ${why}`, { node_type: node.type });
}

/** The operations that may take reference pictures from the elements (docs/storyboards.md, "Elements"). */
export const REFERENCE_OPERATIONS: readonly RunOperation[] = [
  'image_generation',
  'video_generation',
  'storyboard_generation',
];

/**
 * The run a node's data asks for; a generation linked to elements carries their references in its input, and a video
 * run of a shot its frames.
 */
export function planRun(node: CanvasNode, context: RunContext = NO_CONTEXT): RunPlan {
  const plan = planNodeRun(node, context);
  const references =
    context.references && REFERENCE_OPERATIONS.includes(plan.operation) ? { references: context.references } : {};
  const frames = context.frames && plan.operation === 'video_generation' ? { frames: context.frames } : {};
  return { ...plan, input: { ...plan.input, ...references, ...frames } };
}

function planNodeRun(node: CanvasNode, context: RunContext): RunPlan {
  switch (node.type) {
    case 'imageNode':
    case 'imageGenNode': {
      const count = node.type === 'imageGenNode' ? (node.data.count ?? 1) : 1;
      return {
        operation: 'image_generation',
        skillId: null,
        input: definedEntries({
          prompt: node.data.prompt,
          size: node.data.size,
          aspectRatio: node.data.requestAspectRatio ?? node.data.aspectRatio,
          count,
          model: node.data.model,
          generationMode: node.data.generationMode,
        }),
        costEstimated: IMAGE_SIZE_CREDITS[node.data.size] * count,
        outputs: Array.from({ length: count }, () => ({ kind: 'image' as const })),
      };
    }
    case 'audioNode': {
      const music = node.data.audioKind === 'music';
      return {
        operation: music ? 'music_generation' : 'speech_generation',
        skillId: null,
        input: definedEntries({
          text: node.data.text ?? '',
          voiceRef: node.data.voiceRef,
          voiceLanguage: node.data.voiceLanguage,
          emotionPrompt: node.data.emotionPrompt,
          musicLengthMs: music ? node.data.musicLengthMs : undefined,
          forceInstrumental: music ? node.data.forceInstrumental : undefined,
        }),
        costEstimated: music ? 2 : 1,
        outputs: [{ kind: 'audio' }],
      };
    }
    case 'scriptNode':
      return {
        operation: 'script_generation',
        skillId: null,
        input: definedEntries({ prompt: node.data.prompt ?? '', model: node.data.model }),
        costEstimated: 0.5,
        outputs: [{ kind: 'json' }],
      };
    case 'skillNode': {
      const skill = SKILL_OUTPUT[node.data.skill_id];
      return {
        operation: 'skill',
        skillId: node.data.skill_id,
        input: { skill_id: node.data.skill_id, parameters: node.data.parameters ?? {} },
        costEstimated: skill.credits,
        outputs: [{ kind: skill.kind }],
      };
    }
    case 'storyboardGenNode': {
      const frames = node.data.frameCount ?? 6;
      return {
        operation: 'storyboard_generation',
        skillId: null,
        input: definedEntries({
          prompt: node.data.prompt,
          frameCount: frames,
          aspectRatio: node.data.aspectRatio,
          size: node.data.size,
        }),
        costEstimated: 0.5 * frames,
        outputs: [{ kind: 'image' }],
      };
    }
    case 'videoNode':
      return {
        operation: 'video_generation',
        skillId: null,
        input: definedEntries({
          prompt: node.data.prompt ?? node.data.displayName ?? '',
          aspectRatio: node.data.aspectRatio,
          durationMs: clampMs(node.data.durationMs, 2 * SECOND),
        }),
        costEstimated: 5,
        outputs: [{ kind: 'video' }],
      };
    case 'videoStoryNode': {
      if (node.data.shots.length === 0)
        throw notRunnable(node, 'it has no shots; add shots with a prompt and a duration.');
      if (node.data.shots.length > MAX_STORY_SHOTS)
        throw notRunnable(
          node,
          `it has ${node.data.shots.length} shots; a story may have at most ${MAX_STORY_SHOTS}. Split it into shorter stories.`,
        );
      // Every shot for its own duration: only raised to the shortest a shot may be, never capped.
      const shots = node.data.shots.map((shot) => ({
        prompt: shot.prompt,
        durationMs: Math.round(Math.max(shot.durationMs, MIN_CLIP_MS)),
      }));
      const totalMs = shots.reduce((sum, shot) => sum + shot.durationMs, 0);
      if (totalMs > MAX_STORY_MS)
        throw notRunnable(
          node,
          `it lasts ${clock(totalMs)} (${shots.length} shots); a story may last at most ${clock(MAX_STORY_MS)}. Shorten its shots or split it into shorter stories.`,
        );
      return {
        operation: 'video_story',
        skillId: null,
        input: definedEntries({ shots, aspectRatio: node.data.aspectRatio }),
        costEstimated: 3 * shots.length,
        outputs: [{ kind: 'video' }],
      };
    }
    case 'videoComposeNode': {
      if (node.data.clips.length === 0) throw notRunnable(node, 'it has no clips to compose.');
      const clips = [...node.data.clips]
        .sort((left, right) => left.startMs - right.startMs)
        .slice(0, 24)
        .map((clip) => ({
          assetId: context.assetIdOf(clip.videoUrl),
          seed: clip.id,
          trimStartMs: clip.trimStartMs ?? 0,
          trimEndMs: clip.trimEndMs ?? null,
        }));
      return {
        operation: 'video_composition',
        skillId: null,
        input: definedEntries({
          clips,
          audioAssetId: context.assetIdOf(node.data.audioTrackUrl),
          aspectRatio: node.data.aspectRatio,
        }),
        costEstimated: 1,
        outputs: [{ kind: 'video' }],
      };
    }
    case 'threeDWorldNode':
      return {
        operation: 'world_generation',
        skillId: null,
        input: definedEntries({
          prompt: node.data.prompt ?? node.data.displayName ?? node.id,
          sources: node.data.sources.length,
        }),
        costEstimated: 6,
        outputs: [{ kind: 'model' }],
      };
    case 'audioTrimNode': {
      if (!context.sourceAudioAssetId) {
        throw notRunnable(
          node,
          'connect an audio node whose audio is on this server (an edge from it to this node), then run again.',
        );
      }
      return {
        operation: 'audio_trim',
        skillId: null,
        input: {
          sourceAssetId: context.sourceAudioAssetId,
          trimStartMs: node.data.trimStartMs ?? 0,
          trimEndMs: node.data.trimEndMs ?? null,
        },
        costEstimated: 0.1,
        outputs: [{ kind: 'audio' }],
      };
    }
    default:
      throw new CanvasError(
        'not_runnable',
        `A ${node.type} has nothing to run: runs exist for image, audio, script, skill, storyboard, video, 3D world and audio-trim nodes.`,
        { node_type: node.type },
      );
  }
}

/** The identities of the assets a run will produce, pending until they are ready. */
export function pendingResources(plan: RunPlan): RunResource[] {
  return plan.outputs.map((output) => ({
    asset_id: newId(ID_PREFIX.asset),
    kind: output.kind,
    status: 'pending',
    url: null,
  }));
}
