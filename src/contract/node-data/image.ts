import { z } from 'zod';
import {
  AnyJsonValue,
  commonDataFields,
  FreeFormObject,
  GenerationMode,
  generationProgressFields,
  ImageSize,
  NullableString,
} from './common.js';
import { DirectorControlBundle } from './director.js';

/** Spec section "Shared image-result fields (imageNode, imageGenNode, exportImageNode)": all optional. */
export const imageResultFields = {
  imageUrl: NullableString.optional(),
  previewImageUrl: NullableString.optional(),
  deliveryPresentationReady: z.boolean().optional(),
  deliveryOriginalState: z.enum(['processing', 'ready', 'failed']).nullable().optional(),
  deliveryOperationId: NullableString.optional(),
  aspectRatio: z.string().optional(),
  isSizeManuallyAdjusted: z.boolean().optional(),
  candidate_origin: FreeFormObject.optional(),
  output_role: z.string().optional(),
  committed_at: NullableString.optional(),
  committed_slot_url: NullableString.optional(),
  director_control_bundle: DirectorControlBundle.optional(),
  media_kind: z.string().optional(),
};

/** imageUrl (nullable) and aspectRatio are required where the spec says so. */
const requiredImageResult = {
  imageUrl: NullableString,
  aspectRatio: z.string(),
};

export const ImageNodeData = z.strictObject({
  ...commonDataFields,
  ...imageResultFields,
  ...generationProgressFields,
  ...requiredImageResult,
  prompt: z.string(),
  size: ImageSize,
  model: z.string().optional(),
  gatewayModelId: NullableString.optional(),
  resolvedModelId: NullableString.optional(),
  requestAspectRatio: z.string().optional(),
  generationMode: GenerationMode.optional(),
  extraParams: FreeFormObject.optional(),
  modelParams: FreeFormObject.optional(),
  capabilityParams: FreeFormObject.optional(),
  capabilityDefaultPushTarget: FreeFormObject.optional(),
  capabilityId: z.string().optional(),
  capabilityOutputKind: z.string().optional(),
  compiledPromptPreview: z.string().optional(),
  // Value shape not given by the spec: any JSON value per input name (docs/contract.md).
  capabilityInputs: z.record(z.string(), AnyJsonValue).optional(),
});

export const FocusRegion = z.strictObject({
  sourceUrl: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  aspectRatio: z.string().optional(),
});

export const CameraSelection = z.strictObject({
  cameraBodyId: NullableString.optional(),
  lensId: NullableString.optional(),
  focalLengthMm: z.number().nullable().optional(),
  aperture: NullableString.optional(),
});

/** Decided shape of marks items (spec: "item shape not given"): a point or a box on the image, in 0..1 units. */
const markFields = {
  id: z.string(),
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
  label: z.string().optional(),
  color: z.string().optional(),
};
export const ImageMark = z
  .discriminatedUnion('kind', [
    z.strictObject({ ...markFields, kind: z.literal('point') }),
    z.strictObject({
      ...markFields,
      kind: z.literal('box'),
      width: z.number().positive().max(1),
      height: z.number().positive().max(1),
    }),
  ])
  .meta({ id: 'ImageMark' });

export const ImageGenNodeData = z.strictObject({
  ...commonDataFields,
  ...imageResultFields,
  ...generationProgressFields,
  ...requiredImageResult,
  prompt: z.string(),
  size: ImageSize,
  generationMode: GenerationMode.optional(),
  model: z.string().optional(),
  quality: z.string().optional(),
  requestAspectRatio: z.string().optional(),
  resolvedModelId: NullableString.optional(),
  generationBatchId: NullableString.optional(),
  styleTemplateId: NullableString.optional(),
  referenceImageUrl: NullableString.optional(),
  generationBatch: z.array(z.string()).nullable().optional(),
  generationBatchStatus: z.enum(['failed', 'running', 'completed', 'partial_failed', 'cancelled']).optional(),
  modelParams: FreeFormObject.optional(),
  count: z.literal([1, 2, 4]).optional(),
  // Shape not given by the spec: kept a free-form object (docs/contract.md).
  contextPromptMarker: FreeFormObject.nullable().optional(),
  focusRegion: FocusRegion.nullable().optional(),
  cameraSelection: CameraSelection.nullable().optional(),
  autoCommitOnGenerate: z.boolean().optional(),
  marks: z.array(ImageMark).optional(),
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
