import { z } from 'zod';
import {
  AnyJsonValue,
  commonDataFields,
  FreeFormObject,
  GenerationMode,
  generationProgressFields,
  ImageSize,
  List,
  NullableString,
  ObjectKey,
  Str,
} from './common.js';
import { DirectorControlBundle } from './director.js';
import { ARRAY_LIMITS } from '../limits.js';

/** Spec section "Shared image-result fields (imageNode, imageGenNode, exportImageNode)": all optional. */
export const imageResultFields = {
  imageUrl: NullableString.optional(),
  previewImageUrl: NullableString.optional(),
  deliveryPresentationReady: z.boolean().optional(),
  deliveryOriginalState: z.enum(['processing', 'ready', 'failed']).nullable().optional(),
  deliveryOperationId: NullableString.optional(),
  aspectRatio: Str.optional(),
  isSizeManuallyAdjusted: z.boolean().optional(),
  candidate_origin: FreeFormObject.optional(),
  output_role: Str.optional(),
  committed_at: NullableString.optional(),
  committed_slot_url: NullableString.optional(),
  director_control_bundle: DirectorControlBundle.optional(),
  media_kind: Str.optional(),
};

/** imageUrl (nullable) and aspectRatio are required where the spec says so. */
const requiredImageResult = {
  imageUrl: NullableString,
  aspectRatio: Str,
};

/** What the two image nodes that generate (imageNode, imageGenNode) both hold: the result, progress, prompt and size. */
const generatedImageFields = {
  ...commonDataFields,
  ...imageResultFields,
  ...generationProgressFields,
  ...requiredImageResult,
  prompt: Str,
  size: ImageSize,
};

export const ImageNodeData = z.strictObject({
  ...generatedImageFields,
  model: Str.optional(),
  gatewayModelId: NullableString.optional(),
  resolvedModelId: NullableString.optional(),
  requestAspectRatio: Str.optional(),
  generationMode: GenerationMode.optional(),
  extraParams: FreeFormObject.optional(),
  modelParams: FreeFormObject.optional(),
  capabilityParams: FreeFormObject.optional(),
  capabilityDefaultPushTarget: FreeFormObject.optional(),
  capabilityId: Str.optional(),
  capabilityOutputKind: Str.optional(),
  compiledPromptPreview: Str.optional(),
  // Value shape not given by the spec: any JSON value per input name (docs/contract.md).
  capabilityInputs: z.record(ObjectKey, AnyJsonValue).optional(),
});

export const FocusRegion = z.strictObject({
  sourceUrl: Str,
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  aspectRatio: Str.optional(),
});

export const CameraSelection = z.strictObject({
  cameraBodyId: NullableString.optional(),
  lensId: NullableString.optional(),
  focalLengthMm: z.number().nullable().optional(),
  aperture: NullableString.optional(),
});

/** Spec: "marks: array (item shape not given)": any item. */
export const ImageMark = z.unknown().meta({
  id: 'ImageMark',
  description:
    'Any JSON value (the spec gives no shape). Suggested: {kind: "point", id, x, y, label?, color?} or ' +
    '{kind: "box", id, x, y, width, height, label?, color?} in fractions 0..1 of the image.',
});

export const ImageGenNodeData = z.strictObject({
  ...generatedImageFields,
  generationMode: GenerationMode.optional(),
  model: Str.optional(),
  quality: Str.optional(),
  requestAspectRatio: Str.optional(),
  resolvedModelId: NullableString.optional(),
  generationBatchId: NullableString.optional(),
  styleTemplateId: NullableString.optional(),
  referenceImageUrl: NullableString.optional(),
  generationBatch: List(Str, ARRAY_LIMITS.fewItems).nullable().optional(),
  generationBatchStatus: z.enum(['failed', 'running', 'completed', 'partial_failed', 'cancelled']).optional(),
  modelParams: FreeFormObject.optional(),
  count: z.literal([1, 2, 4]).optional(),
  // Shape not given by the spec: kept a free-form object (docs/contract.md).
  contextPromptMarker: FreeFormObject.nullable().optional(),
  focusRegion: FocusRegion.nullable().optional(),
  cameraSelection: CameraSelection.nullable().optional(),
  autoCommitOnGenerate: z.boolean().optional(),
  marks: List(ImageMark).optional(),
  generationError: NullableString.optional(),
});

export const ExportResultKind = z.enum([
  'generic',
  'storyboardGenOutput',
  'storyboardSplitExport',
  'storyboardFrameEdit',
  'matte',
  'upscale',
]);

export const ExportImageNodeData = z.strictObject({
  ...commonDataFields,
  ...imageResultFields,
  ...requiredImageResult,
  resultKind: ExportResultKind.optional(),
});

export type ImageNodeData = z.infer<typeof ImageNodeData>;
export type ImageGenNodeData = z.infer<typeof ImageGenNodeData>;
export type ExportImageNodeData = z.infer<typeof ExportImageNodeData>;
