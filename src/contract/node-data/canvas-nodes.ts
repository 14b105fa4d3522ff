import { z } from 'zod';
import {
  AnyJsonValue,
  commonDataFields,
  FreeFormObject,
  generationProgressFields,
  NullableString,
  PositiveNumber,
} from './common.js';

/** Data shapes of the spec's organising and text nodes: groupNode, textAnnotationNode, beatContextNode, scriptNode. */

export const GroupNodeData = z.strictObject({
  ...commonDataFields,
  label: z.string(),
  backgroundColor: NullableString.optional(),
  storyboardGroup: z.boolean().optional(),
  storyboardShowIndex: z.boolean().optional(),
  storyboardAspect: z.string().optional(),
  storyboardCols: z.number().optional(),
  storyboardBaseWidth: z.number().optional(),
  storyboardBaseHeight: z.number().optional(),
});

/**
 * The spec gives content (the text) and displayName (the title); the rest is decided in docs/contract.md:
 * content is required (an empty string is a valid empty note) and a few presentation fields are optional.
 */
export const TextAnnotationNodeData = z.strictObject({
  ...commonDataFields,
  content: z.string().meta({ description: 'The text of the note.' }),
  fontSize: PositiveNumber.optional(),
  textColor: NullableString.optional(),
  backgroundColor: NullableString.optional(),
  textAlign: z.enum(['left', 'center', 'right']).optional(),
});

/** Decided shape of beatContextNode.snapshot (spec: "shape not given"): the beat as it was at the last sync. */
export const BeatSnapshot = z.strictObject({
  episode: z.number().optional(),
  beat: z.number().optional(),
  content: z.string().optional(),
  capturedAt: z.string().optional().meta({ description: 'ISO 8601 time of the sync.' }),
});

export const BeatContextNodeData = z.strictObject({
  ...commonDataFields,
  content: z.string().optional(),
  projectId: z.string().optional(),
  errorMessage: z.string().optional(),
  episode: z.number().optional(),
  beat: z.number().optional(),
  snapshot: BeatSnapshot.optional(),
  syncStatus: z.enum(['fresh', 'stale', 'syncing', 'error']).optional(),
  mainline_context: AnyJsonValue.optional(),
  beat_edit_fields: FreeFormObject.optional(),
});

export const ScriptNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  prompt: z.string().optional(),
  model: z.string().optional(),
  resolvedModelId: NullableString.optional(),
  scriptTitle: NullableString.optional(),
  generationError: NullableString.optional(),
  lastAction: z.enum(['fromScript', 'fromVideoRef', 'fromCharacter']).nullable().optional(),
  scriptResult: AnyJsonValue.optional(),
});

/** Decided shape of sphereCorrectionDeg (spec: "shape not given"): the three rotation angles in degrees. */
export const SphereCorrection = z.strictObject({
  yaw: z.number(),
  pitch: z.number(),
  roll: z.number(),
});

export const Pano360ViewerNodeData = z.strictObject({
  ...commonDataFields,
  imageUrl: NullableString,
  previewImageUrl: NullableString.optional(),
  sourceNodeId: NullableString.optional(),
  sphereCorrectionDeg: SphereCorrection,
  frontYawDeg: z.number(),
  fovDeg: z.number(),
  lastExportedEntry: FreeFormObject.nullable().optional(),
});
