import { z } from 'zod';
import {
  commonDataFields,
  generationProgressFields,
  ImageSize,
  NullableNumber,
  NullableString,
  PositiveNumber,
} from './common.js';
import { WorldSource } from './director.js';

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
  aspectRatio: z.string().optional(),
  isUploading: z.boolean().optional(),
  uploadError: NullableString.optional(),
});

export const StoryboardFrame = z
  .strictObject({
    id: z.string(),
    imageUrl: NullableString,
    caption: z.string().optional(),
    shotType: z.string().optional(),
    durationMs: NullableNumber.optional(),
    sourceNodeId: NullableString.optional(),
  })
  .meta({ id: 'StoryboardFrame' });

export const StoryboardNodeData = z.strictObject({
  ...commonDataFields,
  frames: z.array(StoryboardFrame),
  title: z.string().optional(),
  aspectRatio: z.string().optional(),
  columns: z.int().min(1).optional(),
});

export const StoryboardGenNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  prompt: z.string(),
  frameCount: z.int().min(1).max(64).optional(),
  aspectRatio: z.string().optional(),
  size: ImageSize.optional(),
  model: z.string().optional(),
  resolvedModelId: NullableString.optional(),
  styleTemplateId: NullableString.optional(),
  resultFrames: z.array(StoryboardFrame).optional(),
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
  aspectRatio: z.string().optional(),
  prompt: z.string().optional(),
  model: z.string().optional(),
  resolvedModelId: NullableString.optional(),
  isUploading: z.boolean().optional(),
  generationError: NullableString.optional(),
});

export const VideoStoryShot = z
  .strictObject({
    id: z.string(),
    prompt: z.string(),
    durationMs: PositiveNumber,
    imageUrl: NullableString.optional(),
    videoUrl: NullableString.optional(),
    sourceNodeId: NullableString.optional(),
  })
  .meta({ id: 'VideoStoryShot' });

export const VideoStoryNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  shots: z.array(VideoStoryShot),
  title: z.string().optional(),
  aspectRatio: z.string().optional(),
  resultVideoUrl: NullableString.optional(),
  generationError: NullableString.optional(),
});

export const VideoComposeClip = z
  .strictObject({
    id: z.string(),
    videoUrl: NullableString,
    sourceNodeId: NullableString.optional(),
    startMs: NonNegativeNumber,
    trimStartMs: NonNegativeNumber.optional(),
    trimEndMs: NullableNumber.optional(),
  })
  .meta({ id: 'VideoComposeClip' });

export const VideoComposeNodeData = z.strictObject({
  ...commonDataFields,
  clips: z.array(VideoComposeClip),
  audioTrackUrl: NullableString.optional(),
  resultVideoUrl: NullableString.optional(),
  aspectRatio: z.string().optional(),
  isExporting: z.boolean().optional(),
  exportError: NullableString.optional(),
});

export const ThreeDWorldNodeData = z.strictObject({
  ...commonDataFields,
  ...generationProgressFields,
  sources: z.array(WorldSource),
  activeSourceId: NullableString.optional(),
  previewImageUrl: NullableString.optional(),
  prompt: z.string().optional(),
  generationError: NullableString.optional(),
});
