import type { ProviderJob } from '../provider.js';

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
