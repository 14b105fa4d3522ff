import { z } from 'zod';
import { BaseRevision } from './identifiers.js';

/**
 * Checkpoints (docs/ui.md, "History"): a named revision of a canvas to come back to. Restoring one is
 * a revert to its revision (POST …/revert), a new revision that loses nothing. People name them; one is taken on its
 * own (`auto`) before an assistant's turn that changed more than a handful of nodes.
 */

export const CheckpointView = z
  .strictObject({
    checkpoint_id: z.string(),
    name: z.string(),
    revision: z.int().min(0),
    kind: z.enum(['named', 'auto']),
    created_by: z.string().meta({ description: 'Who named it, in words; the assistant for an automatic one.' }),
    created_at: z.string(),
  })
  .meta({ id: 'CheckpointView' });
export type CheckpointView = z.infer<typeof CheckpointView>;

export const CheckpointList = z.strictObject({ checkpoints: z.array(CheckpointView) }).meta({ id: 'CheckpointList' });
export type CheckpointList = z.infer<typeof CheckpointList>;

export const CheckpointCreateBody = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(100, { error: 'must be at most 100 characters' }),
    revision: BaseRevision.optional().meta({ description: 'The revision to keep; the current one when left out.' }),
  })
  .meta({ id: 'CheckpointCreateBody' });
export type CheckpointCreateBody = z.infer<typeof CheckpointCreateBody>;
