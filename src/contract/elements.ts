import { z } from 'zod';

/**
 * Elements (docs/storyboards.md, "Elements"): a project's library of what must look the same from
 * shot to shot: a character, a location, a prop, a style. Each has a name, notes and up to four reference pictures
 * (uploaded images). A shot is linked to an element by name (its cast or location, e.g. from the script) or by a
 * mention in its words (`@Mara`); a generation prompt links by mention. A run of a linked node passes the elements'
 * pictures to providers that take image references, and its record says which were passed and whether they were used.
 */

export const ELEMENT_KINDS = {
  character: 'Character',
  location: 'Location',
  prop: 'Prop',
  style: 'Style',
} as const;

export const ElementKind = z.enum(Object.keys(ELEMENT_KINDS) as [keyof typeof ELEMENT_KINDS]);
export type ElementKind = z.infer<typeof ElementKind>;

/** At most this many reference pictures per element, and per run (the providers' common limit is around four to ten). */
export const MAX_ELEMENT_REFERENCES = 4;
export const MAX_RUN_REFERENCES = 8;

export const ElementId = z
  .string()
  .regex(/^el_[A-Za-z0-9_-]{16}$/, { error: 'must be an element id (el_ then 16 characters)' });

export const ElementName = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(60, { error: 'must be at most 60 characters' })
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} .'’-]*$/u, {
    error: "must start with a letter or digit and hold only letters, digits, spaces and . ' -",
  })
  .meta({ description: 'How shots and prompts name it (`@Mara`); unique in the project, whatever the case.' });

export const ElementReference = z.strictObject({
  asset_id: z.string(),
  url: z.string().meta({ description: 'The picture, a signed asset URL.' }),
  mime_type: z.string(),
});
export type ElementReference = z.infer<typeof ElementReference>;

export const ElementView = z
  .strictObject({
    element_id: ElementId,
    kind: ElementKind,
    name: z.string(),
    notes: z.string(),
    references: z.array(ElementReference).max(MAX_ELEMENT_REFERENCES),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ElementView' });
export type ElementView = z.infer<typeof ElementView>;

export const ElementList = z.strictObject({ elements: z.array(ElementView) }).meta({ id: 'ElementList' });
export type ElementList = z.infer<typeof ElementList>;

const Notes = z.string().max(2000, { error: 'must be at most 2000 characters' });
const ReferenceAssets = z
  .array(z.string().regex(/^asset_[A-Za-z0-9_-]{16}$/, { error: 'must be an asset id (asset_…)' }))
  .max(MAX_ELEMENT_REFERENCES, { error: `must hold at most ${MAX_ELEMENT_REFERENCES} pictures` })
  .meta({
    description:
      'Asset ids of uploaded pictures of this project (POST …/uploads answers them), in order; replaces the list.',
  });

export const ElementCreateBody = z
  .strictObject({
    kind: ElementKind,
    name: ElementName,
    notes: Notes.optional(),
    references: ReferenceAssets.optional(),
  })
  .meta({ id: 'ElementCreateBody' });
export type ElementCreateBody = z.infer<typeof ElementCreateBody>;

export const ElementUpdateBody = z
  .strictObject({
    kind: ElementKind.optional(),
    name: ElementName.optional(),
    notes: Notes.optional(),
    references: ReferenceAssets.optional(),
  })
  .meta({ id: 'ElementUpdateBody' });
export type ElementUpdateBody = z.infer<typeof ElementUpdateBody>;

/**
 * What a run was given from the elements, in its record: the elements linked to its node when it was submitted, how
 * many reference pictures went with them, and whether the provider used them (null until the run ends; false when the
 * provider or model takes no image references, which is not a failure: the run still runs).
 */
export const RunReferences = z.strictObject({
  elements: z.array(z.strictObject({ element_id: z.string(), name: z.string(), kind: ElementKind })),
  images: z.int().min(0),
  used: z.boolean().nullable(),
});
export type RunReferences = z.infer<typeof RunReferences>;

/** How a run's input carries its references (the provider reads the pictures by asset id). */
export const RunReferenceInput = z.object({
  elements: z.array(z.object({ element_id: z.string(), name: z.string(), kind: ElementKind })),
  asset_ids: z.array(z.string()),
});
export type RunReferenceInput = z.infer<typeof RunReferenceInput>;
