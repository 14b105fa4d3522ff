import { z } from 'zod';
import {
  AnyJsonValue,
  commonDataFields,
  FreeFormObject,
  generationProgressFields,
  NullableString,
  PositiveNumber,
  Str,
  UnspecifiedObject,
} from './common.js';

/** Data shapes of the spec's organising and text nodes: groupNode, textAnnotationNode, beatContextNode, scriptNode. */

export const GroupNodeData = z.strictObject({
  ...commonDataFields,
  label: Str,
  backgroundColor: NullableString.optional(),
  storyboardGroup: z.boolean().optional(),
  storyboardShowIndex: z.boolean().optional(),
  storyboardAspect: Str.optional(),
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
  content: Str.meta({ description: 'The text of the note.' }),
  fontSize: PositiveNumber.optional(),
  textColor: NullableString.optional(),
  backgroundColor: NullableString.optional(),
  textAlign: z.enum(['left', 'center', 'right']).optional(),
});

/** Spec: "snapshot: object (shape not given)". */
export const BeatSnapshot = UnspecifiedObject(
  'the beat as it was at the last sync: {episode?, beat?, content?, capturedAt? (ISO 8601)}.',
);

export const BeatContextNodeData = z.strictObject({
  ...commonDataFields,
  content: Str.optional(),
  projectId: Str.optional(),
  errorMessage: Str.optional(),
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
  prompt: Str.optional(),
  model: Str.optional(),
  resolvedModelId: NullableString.optional(),
  scriptTitle: NullableString.optional(),
  generationError: NullableString.optional(),
  lastAction: z.enum(['fromScript', 'fromVideoRef', 'fromCharacter']).nullable().optional(),
  scriptResult: AnyJsonValue.optional(),
});

/** Spec: "sphereCorrectionDeg: object (shape not given)", required. */
export const SphereCorrection = UnspecifiedObject(
  'the rotation that levels the sphere, in degrees: {yaw, pitch, roll}.',
);

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
