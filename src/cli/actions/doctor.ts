import { loadServeConfig, type ConfigInput } from '../../config/index.js';
import { CanvasError } from '../../shared/errors.js';
import { report } from '../cli-support.js';

/**
 * `canvas-mcp doctor`: which model the canvas chat would use with these settings (the same flags and environment as
 * `serve`), and whether it answers: one short request, with a 30 s limit. The key is never printed. Also which ffmpeg
 * and ffprobe read uploads and make films, with their versions, and a warning when a build is old.
 */

export type DoctorFlags = { json?: boolean };

export async function doctor(settings: ConfigInput, flags: DoctorFlags): Promise<void> {
  const config = loadServeConfig(settings);
  // Loaded once the settings are valid: a mistyped flag is answered without loading the model SDKs.
  const { chatModelOf, chatModelStatus } = await import('../../agent/model.js');
  const { describeModelFailure } = await import('../../agent/model-errors.js');
  const { generateText } = await import('ai');
  const { describeMediaBinaries } = await import('../../shared/media-binaries.js');
  const media = await describeMediaBinaries();
  const mediaLines = media
    .map((binary) => `${binary.tool}: ${binary.path} (${binary.version ?? 'does not run'})`)
    .concat(media.flatMap((binary) => (binary.warning ? [`warning: ${binary.warning}`] : [])))
    .join('\n');
  const model = chatModelOf(config);
  const status = chatModelStatus(model);
  if (!model) {
    report(flags.json, { ...status, answers: null, media }, `${status.message}\n${mediaLines}`);
    return;
  }
  const started = performance.now();
  try {
    const answer = await generateText({
      model: await model.languageModel(),
      prompt: 'Reply with the single word OK.',
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(30_000),
    });
    const ms = Math.round(performance.now() - started);
    report(
      flags.json,
      { ...status, answers: true, reply: answer.text.slice(0, 200), latency_ms: ms, media },
      `${status.message}\nIt answers: "${answer.text.slice(0, 80)}" in ${ms} ms.\n${mediaLines}`,
    );
  } catch (error) {
    throw new CanvasError('unavailable', `${status.message} It does not answer: ${describeModelFailure(error)}`, {
      provider: model.provider,
      model: model.modelId,
    });
  }
}
