import { z } from 'zod';
import {
  commonDataFields,
  FreeFormObject,
  List,
  NullableNumber,
  NullableString,
  Str,
  UnspecifiedObject,
} from './common.js';

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
    characterName: Str.optional(),
    identityId: Str.optional(),
    slot: Str.optional(),
    voiceId: Str.optional(),
  })
  .meta({ id: 'VoiceReference' });

/** Spec: "segments: array of segment objects (item shapes are one of three variants, not given)". */
export const AudioSegment = UnspecifiedObject(
  'one of {kind: "speech", id, text, voiceRef?, emotionPrompt?, startMs?, durationMs?}, ' +
    '{kind: "music", id, label, prompt?, startMs?, durationMs > 0} or {kind: "silence", id, startMs?, durationMs > 0}.',
).meta({ id: 'AudioSegment' });

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
  text: Str.optional(),
  emotionPrompt: Str.optional(),
  voiceLabel: Str.optional(),
  voiceLanguage: Str.optional(),
  segments: List(AudioSegment).optional(),
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
