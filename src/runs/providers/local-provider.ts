import { appendFileSync } from 'node:fs';
import {
  abortableDelay,
  ProviderError,
  type ProducedAsset,
  type ProviderContext,
  type ProviderJob,
  type RunProvider,
} from './provider.js';
import { aspectOf, deterministicPng, deterministicRgb, deterministicWav, storyboardPng } from './artifacts.js';
import { composeVideo, encodeFrames, evenSize, trimAudio, type ComposeClip, type VideoFormat } from './media/ffmpeg.js';
import { worldGlb } from './media/world-glb.js';

/**
 * The built-in offline provider: it takes `durationMs`, reports progress ten times, honours cancellation at every
 * step, and produces real files derived deterministically from the input: PNG images and storyboard sheets, WAV
 * audio (generated or trimmed), WebM videos (generated, from shots, or composed from clips), GLB worlds, JSON.
 */
export interface LocalProviderOptions {
  durationMs: number;
  /** Diagnostics: appends "run_id attempt" to this file each time an execution starts. */
  executionLog?: string;
}

const STEPS = 10;
const IMAGE_WIDTH = 256;
const VIDEO_WIDTH = 320;
const VIDEO_FPS = 12;

function seedOf(job: ProviderJob, index: number): string {
  return JSON.stringify({ operation: job.operation, input: job.input, index });
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function videoFormat(aspectRatio: unknown): VideoFormat {
  const aspect = aspectOf(aspectRatio ?? '16:9');
  return { ...evenSize(VIDEO_WIDTH, VIDEO_WIDTH / aspect), fps: VIDEO_FPS };
}

/** Frames of a generated clip: the seed's picture, moving. */
function generatedClip(seed: string, durationMs: number, format: VideoFormat) {
  const count = Math.max(1, Math.round((durationMs / 1000) * format.fps));
  return { count, frames: (index: number) => deterministicRgb(seed, format.width, format.height, index / count) };
}

type Output = ProviderJob['outputs'][number];

/**
 * The file of an asset a run reads (a clip, an audio track). One that is not on this server (deleted, or a URL
 * typed by hand) fails the run naming the input and the asset, not with the encoder's message about a server path.
 */
async function inputFile(context: ProviderContext, assetId: string, input: string): Promise<string> {
  const file = await context.inputFile(assetId);
  if (!file)
    throw new ProviderError(
      'input_missing',
      `${input} refers to the asset ${assetId}, which is not on this server.`,
      false,
    );
  return file;
}

async function produce(
  job: ProviderJob,
  output: Output,
  index: number,
  context: ProviderContext,
): Promise<ProducedAsset> {
  const seed = seedOf(job, index);
  const asset = (mimeType: string, bytes: Buffer): ProducedAsset => ({
    assetId: output.assetId,
    kind: output.kind,
    mimeType,
    bytes,
  });
  const { input } = job;
  const { signal } = context;
  switch (job.operation) {
    case 'image_generation':
      return asset('image/png', deterministicPng(seed, IMAGE_WIDTH, aspectOf(input.aspectRatio)));
    case 'speech_generation':
    case 'music_generation': {
      const music = job.operation === 'music_generation';
      const durationMs = music
        ? Math.min(Number(input.musicLengthMs ?? 4000) || 4000, 8000)
        : Math.min(Math.max(text(input.text).length * 60, 600), 8000);
      return asset('audio/wav', deterministicWav(seed, durationMs, music));
    }
    case 'script_generation': {
      const prompt = text(input.prompt);
      const result = {
        title: `Script for: ${prompt.slice(0, 60)}`,
        scenes: [{ index: 1, beat: 'opening', text: prompt }],
      };
      return asset('application/json', Buffer.from(JSON.stringify(result, null, 2)));
    }
    case 'skill': {
      if (output.kind === 'image') {
        const parameters = input.parameters as { aspect_ratio?: string } | undefined;
        return asset('image/png', deterministicPng(seed, IMAGE_WIDTH, aspectOf(parameters?.aspect_ratio)));
      }
      const result = {
        skill_id: job.skillId,
        parameters: input.parameters ?? {},
        result: 'completed by the local provider',
      };
      return asset('application/json', Buffer.from(JSON.stringify(result, null, 2)));
    }
    case 'storyboard_generation': {
      const count = Math.min(Math.max(Number(input.frameCount ?? 6) || 6, 1), 64);
      const seeds = Array.from({ length: count }, (_, frame) => `${seed}:${frame}`);
      return asset('image/png', storyboardPng(seeds, Math.min(count, 4), 128, aspectOf(input.aspectRatio ?? '16:9')));
    }
    case 'video_generation': {
      const format = videoFormat(input.aspectRatio);
      const clip = generatedClip(seed, Number(input.durationMs ?? 2000), format);
      return asset('video/webm', await encodeFrames(clip.frames, clip.count, format, signal));
    }
    case 'video_story': {
      const format = videoFormat(input.aspectRatio);
      const shots = (input.shots as Array<{ prompt: string; durationMs: number }>) ?? [];
      const clips: ComposeClip[] = shots.map((shot, shotIndex) => ({
        source: generatedClip(`${seed}:${shotIndex}:${shot.prompt}`, shot.durationMs, format),
        trimStartMs: 0,
        trimEndMs: null,
      }));
      return asset('video/webm', await composeVideo(clips, format, null, signal));
    }
    case 'video_composition': {
      const format = videoFormat(input.aspectRatio);
      const clips =
        (input.clips as Array<{
          assetId: string | null;
          seed: string;
          trimStartMs: number;
          trimEndMs: number | null;
        }>) ?? [];
      const composed: ComposeClip[] = [];
      for (const [index, clip] of clips.entries()) {
        composed.push({
          // A clip whose video is not on this server is rendered from its id, so the composition keeps its timing.
          source: clip.assetId
            ? { file: await inputFile(context, clip.assetId, `clip ${index + 1}`) }
            : generatedClip(`${seed}:${clip.seed}`, 2000, format),
          trimStartMs: clip.trimStartMs,
          trimEndMs: clip.trimEndMs,
        });
      }
      const audio =
        typeof input.audioAssetId === 'string' ? await inputFile(context, input.audioAssetId, 'the audio track') : null;
      return asset('video/webm', await composeVideo(composed, format, audio, signal));
    }
    case 'world_generation':
      return asset('model/gltf-binary', await worldGlb(seed));
    case 'audio_trim': {
      if (typeof input.sourceAssetId !== 'string')
        throw new ProviderError('bad_input', 'The trim has no source audio.', false);
      const end = input.trimEndMs === null || input.trimEndMs === undefined ? null : Number(input.trimEndMs);
      return asset(
        'audio/wav',
        await trimAudio(
          await inputFile(context, input.sourceAssetId, 'the source audio'),
          Number(input.trimStartMs ?? 0),
          end,
          signal,
        ),
      );
    }
  }
}

export function createLocalProvider(options: LocalProviderOptions): RunProvider {
  return {
    name: 'local',
    async execute(job, context) {
      if (options.executionLog) appendFileSync(options.executionLog, `${job.runId} ${job.attempt}\n`);
      for (let step = 1; step <= STEPS; step += 1) {
        await abortableDelay(options.durationMs / STEPS, context.signal);
        context.progress(
          Math.round((step * 100) / STEPS),
          step === STEPS ? 'finishing' : `generating (${step}/${STEPS})`,
        );
      }
      context.signal.throwIfAborted();
      const assets: ProducedAsset[] = [];
      for (const [index, output] of job.outputs.entries()) assets.push(await produce(job, output, index, context));
      return { assets };
    },
  };
}
