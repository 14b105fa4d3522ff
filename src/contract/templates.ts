import { z } from 'zod';
import { CanvasId } from './identifiers.js';

/**
 * Canvas templates (docs/storyboards.md, "Templates"): a new canvas can start from a built-in
 * template (film, commercial, vertical social, animation) or from one of its project's own, which an owner saved
 * from a canvas.
 */

export const TemplateId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, { error: 'must be 1..64 lowercase letters, digits or -' })
  .meta({ description: 'A built-in template (film-16x9, commercial-60, …) or one of the project’s own.' });

export const TemplateView = z
  .strictObject({
    template_id: TemplateId,
    title: z.string(),
    description: z.string(),
    kind: z.enum(['builtin', 'project']),
  })
  .meta({ id: 'TemplateView' });
export type TemplateView = z.infer<typeof TemplateView>;

export const TemplateList = z.strictObject({ templates: z.array(TemplateView) }).meta({ id: 'TemplateList' });
export type TemplateList = z.infer<typeof TemplateList>;

export const TemplateCreateBody = z
  .strictObject({
    canvas_id: CanvasId.meta({ description: 'The canvas to save as a template (its layout as it is now).' }),
    title: z.string().trim().min(1).max(100),
    description: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'TemplateCreateBody' });
export type TemplateCreateBody = z.infer<typeof TemplateCreateBody>;
