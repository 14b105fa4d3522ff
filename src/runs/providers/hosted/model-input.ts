import { declarationOf } from '../../../shared/model-declarations.js';
import { withFrames } from '../frame-pictures.js';
import type { ProviderContext, ProviderJob } from '../provider.js';
import { withReferences } from '../reference-pictures.js';

/**
 * What a hosted model (fal, Replicate) is asked, from a run's input: the names most text-to-image and text-to-video
 * models on both share (`prompt`, `aspect_ratio`, `num_outputs`/`num_images`, `duration` in seconds).
 */
export function hostedModelInput(job: ProviderJob, countKey: 'num_outputs' | 'num_images'): Record<string, unknown> {
  const input = job.input;
  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  const aspect = typeof input.aspectRatio === 'string' ? { aspect_ratio: input.aspectRatio } : {};
  switch (job.operation) {
    case 'image_generation':
      return { prompt, ...aspect, [countKey]: job.outputs.length };
    case 'storyboard_generation': {
      const frames = Number(input.frameCount ?? 6) || 6;
      return {
        prompt: `A storyboard sheet of ${frames} numbered frames in a grid: ${prompt}`,
        ...aspect,
        [countKey]: 1,
      };
    }
    case 'video_generation':
      return { prompt, ...aspect, duration: Math.max(1, Math.round(Number(input.durationMs ?? 5000) / 1000)) };
    default:
      return { prompt };
  }
}

/**
 * Everything a hosted model is sent for a run: the shared input above, the elements' reference pictures when the model
 * takes them, and a shot's frames (docs/runs.md, "Model declarations"), each in the input its declaration names.
 */
export async function hostedInputs(
  job: ProviderJob,
  countKey: 'num_outputs' | 'num_images',
  model: string,
  referenceInputs: Readonly<Record<string, string>> | undefined,
  context: ProviderContext,
): Promise<{ input: Record<string, unknown>; referencesUsed: boolean }> {
  const declaration = declarationOf(model, referenceInputs);
  const { input, referencesUsed } = await withReferences(hostedModelInput(job, countKey), declaration, job, context);
  return { input: await withFrames(input, model, declaration, job, context), referencesUsed };
}
