import { z } from 'zod';
import { commonDataFields, NullableNumber, NullableString } from './common.js';

/** Spec section "Data of skillNode": parameters whose shape depends on skill_id, no unknown properties. */

export const SKILL_IDS = [
  'zone.sketch_from_context',
  'zone.sketch_from_director_combined',
  'zone.frame_from_context',
  'zone.set_selected_background',
  'zone.set_director_combined',
  'zone.scene_360',
  'agent.review_frame',
  'workflow.plan_beat_graph',
] as const;
export const SkillId = z.enum(SKILL_IDS);
export type SkillId = z.infer<typeof SkillId>;

export const SKILL_SCHEMA_VERSION = 'skill.v1';
export const SkillSchemaVersion = z.literal(SKILL_SCHEMA_VERSION);

const SketchParameters = z.strictObject({ aspect_ratio: z.enum(['2:3', '16:9']).optional() });
const FrameFromContextParameters = z.strictObject({
  quality: z.enum(['low', 'medium', 'high']).optional(),
  background_reference_mode: z.enum(['material_only', 'scene_anchor']).optional(),
});
const NoParameters = z.strictObject({});

/** The parameters schema of every skill, keyed by skill_id: the catalog publishes these as JSON Schema. */
export const SKILL_PARAMETERS = {
  'zone.sketch_from_context': SketchParameters,
  'zone.sketch_from_director_combined': SketchParameters,
  'zone.frame_from_context': FrameFromContextParameters,
  'zone.set_selected_background': NoParameters,
  'zone.set_director_combined': NoParameters,
  'zone.scene_360': NoParameters,
  'agent.review_frame': NoParameters,
  'workflow.plan_beat_graph': NoParameters,
} as const satisfies Record<SkillId, z.ZodType>;

const skillNodeFields = {
  ...commonDataFields,
  skill_schema_version: SkillSchemaVersion.optional(),
  isGenerating: z.boolean().optional(),
  generationStartedAt: NullableNumber.optional(),
  generationError: NullableString.optional(),
  skillRunId: NullableString.optional(),
  skillInputSignature: NullableString.optional(),
  skillIdempotencyKey: NullableString.optional(),
  generationTaskKey: NullableString.optional(),
  generationTaskType: NullableString.optional(),
  generationTaskJobId: NullableString.optional(),
};

// One variant per skill_id, derived from SKILL_PARAMETERS so the pairing of id and parameters is written once.
const skillVariants = SKILL_IDS.map((skillId) =>
  z.strictObject({
    ...skillNodeFields,
    skill_id: z.literal(skillId),
    parameters: (SKILL_PARAMETERS[skillId] as (typeof SKILL_PARAMETERS)[SkillId]).optional(),
  }),
);
type SkillVariant = (typeof skillVariants)[number];

export const SkillNodeData = z.discriminatedUnion('skill_id', skillVariants as [SkillVariant, ...SkillVariant[]]);

export type SkillNodeData = z.infer<typeof SkillNodeData>;
