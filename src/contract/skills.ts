import { z } from 'zod';
import { SkillId, SkillSchemaVersion } from './node-data/skill.js';

/** A skill catalog entry: the spec says only "a skill identifier and the input schema of the skill". */
export const SkillCatalogEntry = z.strictObject({
  skill_id: SkillId,
  skill_schema_version: SkillSchemaVersion,
  title: z.string(),
  description: z.string(),
  input_schema: z
    .record(z.string(), z.unknown())
    .meta({ description: 'JSON Schema of skillNode.data.parameters for this skill_id.' }),
});
export type SkillCatalogEntry = z.infer<typeof SkillCatalogEntry>;

export const SkillCatalog = z.looseObject({ skills: z.array(SkillCatalogEntry) });
export type SkillCatalog = z.infer<typeof SkillCatalog>;
