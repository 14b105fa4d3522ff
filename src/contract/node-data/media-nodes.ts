import { z } from 'zod';
import {
  commonDataFields,
  generationProgressFields,
  ImageSize,
  List,
  NullableNumber,
  NullableString,
  PositiveNumber,
  Str,
} from './common.js';
import { WorldSource } from './director.js';
import { shotFields } from '../shots.js';
import { DRAWING_BOUNDS, ShotMark } from '../drawing.js';
import { ARRAY_LIMITS } from '../limits.js';

/**
 * Data shapes the spec does not show (uploadNode, storyboardNode, storyboardGenNode, videoNode, videoStoryNode,
 * videoComposeNode, threeDWorldNode). Each is our decision, recorded with its reason in docs/contract.md. They
 * follow the shown shapes' conventions: camelCase, `…Url: string | null` for media, the generation progress
 * fields where the node generates, and no unknown properties.
 */

const NonNegativeNumber = z.number().min(0);

export const UploadNodeData = z.strictObject({
  ...commonDataFields,
  fileUrl: NullableString.meta({ description: 'URL of the uploaded file; null until the upload finishes.' }),
  fileName: NullableString.optional(),
  mimeType: NullableString.optional(),
  mediaKind: z.enum(['image', 'video', 'audio', 'document', 'model3d']).optional(),
  sizeBytes: z.int().min(0).nullable().optional(),
  previewImageUrl: NullableString.optional(),
  aspectRatio: Str.optional(),
  width: z.int().min(1).nullable().optional(),
  height: z.int().min(1).nullable().optional(),
  isUploading: z.boolean().optional(),
  uploadError: NullableString.optional(),
});

export const StoryboardFrame = z
  .strictObject({
    id: Str,
    imageUrl: NullableString,
    caption: Str.optional(),
    shotType: Str.optional(),
    durationMs: NullableNumber.optional(),
    sourceNodeId: NullableString.optional(),
    ...shotFields(Str, (max) => List(Str, max)),
    earlierPictures: List(Str, 20).optional(),
    drawingUrl: NullableString.optional(),
    marks: List(ShotMark, DRAWING_BOUNDS.marks).optional(),
  })
  .meta({ id: 'StoryboardFrame' });

export const StoryboardNodeData = z.strictObject({
  ...commonDataFields,
  frames: List(StoryboardFrame),
  title: Str.optional(),
  aspectRatio: Str.optional(),
  columns: z.int().min(1).optional(),
  numbersLocked: z.boolean().optional(),
});

export const StoryboardGenNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  prompt: Str,
  frameCount: z.int().min(1).max(64).optional(),
  aspectRatio: Str.optional(),
  size: ImageSize.optional(),
  model: Str.optional(),
  resolvedModelId: NullableString.optional(),
  styleTemplateId: NullableString.optional(),
  resultFrames: List(StoryboardFrame).optional(),
  generationError: NullableString.optional(),
});

export const VideoNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  videoUrl: NullableString,
  previewImageUrl: NullableString.optional(),
  sourceFileName: NullableString.optional(),
  sourceImageUrl: NullableString.optional(),
  durationMs: NullableNumber.optional(),
  aspectRatio: Str.optional(),
  prompt: Str.optional(),
  model: Str.optional(),
  resolvedModelId: NullableString.optional(),
  isUploading: z.boolean().optional(),
  generationError: NullableString.optional(),
});

export const VideoStoryShot = z
  .strictObject({
    id: Str,
    prompt: Str,
    durationMs: PositiveNumber,
    imageUrl: NullableString.optional(),
    videoUrl: NullableString.optional(),
    sourceNodeId: NullableString.optional(),
  })
  .meta({ id: 'VideoStoryShot' });

export const VideoStoryNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  shots: List(VideoStoryShot),
  title: Str.optional(),
  aspectRatio: Str.optional(),
  resultVideoUrl: NullableString.optional(),
  generationError: NullableString.optional(),
});

export const VideoComposeClip = z
  .strictObject({
    id: Str,
    videoUrl: NullableString,
    sourceNodeId: NullableString.optional(),
    startMs: NonNegativeNumber,
    trimStartMs: NonNegativeNumber.optional(),
    trimEndMs: NullableNumber.optional(),
  })
  .meta({ id: 'VideoComposeClip' });

export const VideoComposeNodeData = z.strictObject({
  ...commonDataFields,
  clips: List(VideoComposeClip),
  audioTrackUrl: NullableString.optional(),
  resultVideoUrl: NullableString.optional(),
  aspectRatio: Str.optional(),
  isExporting: z.boolean().optional(),
  exportError: NullableString.optional(),
});

export const ThreeDWorldNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  sources: List(WorldSource, ARRAY_LIMITS.fewItems),
  activeSourceId: NullableString.optional(),
  previewImageUrl: NullableString.optional(),
  prompt: Str.optional(),
  generationError: NullableString.optional(),
});
