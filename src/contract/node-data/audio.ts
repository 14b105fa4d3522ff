import { z } from 'zod';
import { commonDataFields, FreeFormObject, NullableNumber, NullableString, PositiveNumber } from './common.js';

export const VoiceReference = z
  .strictObject({
    scope: z.enum([
      'project_narrator',
      'user_custom',
      'character_default',
      'character_age_group',
      'identity',
      'identity_resolved',
    ]),
    characterName: z.string().optional(),
    identityId: z.string().optional(),
    slot: z.string().optional(),
    voiceId: z.string().optional(),
  })
  .meta({ id: 'VoiceReference' });

/**
 * Decided shapes of the three segment variants (spec: "one of three variants, not given"): a spoken line, a
 * music section and a silence, discriminated by `kind`.
 */
const segmentFields = {
  id: z.string(),
  startMs: z.number().min(0).optional(),
};
export const SpeechSegment = z.strictObject({
  ...segmentFields,
  kind: z.literal('speech'),
  text: z.string(),
  voiceRef: VoiceReference.nullable().optional(),
  emotionPrompt: z.string().optional(),
  durationMs: NullableNumber.optional(),
});
export const MusicSegment = z.strictObject({
  ...segmentFields,
  kind: z.literal('music'),
  label: z.string(),
  prompt: z.string().optional(),
  durationMs: PositiveNumber,
});
export const SilenceSegment = z.strictObject({
  ...segmentFields,
  kind: z.literal('silence'),
  durationMs: PositiveNumber,
});
export const AudioSegment = z
  .discriminatedUnion('kind', [SpeechSegment, MusicSegment, SilenceSegment])
  .meta({ id: 'AudioSegment' });

export const AudioNodeData = z.strictObject({
  ...commonDataFields,
  audioUrl: NullableString,
  sourceFileName: NullableString.optional(),
  resolvedModelId: NullableString.optional(),
  gatewayModelId: NullableString.optional(),
  durationMs: NullableNumber.optional(),
  isUploading: z.boolean().optional(),
  isGenerating: z.boolean().optional(),
  forceInstrumental: z.boolean().optional(),
  respectSectionsDurations: z.boolean().optional(),
  audioKind: z.enum(['speech', 'music']).optional(),
  musicLengthMs: z.number().optional(),
  text: z.string().optional(),
  emotionPrompt: z.string().optional(),
  voiceLabel: z.string().optional(),
  voiceLanguage: z.string().optional(),
  segments: z.array(AudioSegment).optional(),
  voiceRef: VoiceReference.nullable().optional(),
  generationStartedAt: NullableNumber.optional(),
  generationError: NullableString.optional(),
  convertingAudioFormat: z.enum(['mp3', 'm4a', 'wav']).nullable().optional(),
});

export const AudioTrimNodeData = z.strictObject({
  ...commonDataFields,
  trimStartMs: z.number().optional(),
  trimEndMs: NullableNumber.optional(),
  resultAudioUrl: NullableString.optional(),
  isExporting: z.boolean().optional(),
  exportError: NullableString.optional(),
  draftTimeline: FreeFormObject.nullable().optional(),
});

export type AudioNodeData = z.infer<typeof AudioNodeData>;
export type VoiceReference = z.infer<typeof VoiceReference>;
