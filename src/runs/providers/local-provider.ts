import { appendFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSharp } from '../../shared/sharp.js';
import { AnimaticOptions } from '../../contract/exports.js';
import { renderAnimatic } from '../../exports/animatic.js';
import type { ExportShot } from '../../exports/export-board.js';
import {
  abortableDelay,
  ProviderError,
  type ProducedAsset,
  type ProviderContext,
  type ProviderJob,
  type RunProvider,
} from './provider.js';
import { aspectOf, deterministicPng, deterministicRgb, deterministicWav, storyboardPng } from './artifacts.js';
import {
  composeVideo,
  encodeFrames,
  evenSize,
  inScratch,
  trimAudio,
  type ComposeClip,
  type VideoFormat,
} from '../../shared/ffmpeg.js';
import { worldGlb } from './media/world-glb.js';
import { framePictures } from './frame-pictures.js';

/**
 * The built-in offline provider: it takes `durationMs`, reports progress ten times, honours cancellation at every
 * step, and produces real files derived deterministically from the input: PNG images and storyboard sheets, WAV
 * audio (generated or trimmed), MP4 videos (generated, from a shot's frames, or composed from clips), an MP4 animatic
 * of a video story's shots, GLB worlds, JSON.
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
/**
 * A video story is an animatic (src/exports/animatic.ts): 720p, 24 fps, a push-in on each still so the story moves,
 * cuts between shots. Its encoding is real work that reports its own progress, so the simulated wait before it
 * takes only the first STORY_WAIT_PERCENT of the run's progress.
 */
const STORY_OPTIONS = AnimaticOptions.parse({ resolution: '720p', frame_rate: '24', push_in: true, transition: 'cut' });
const STORY_FRAME = { width: 1280, height: 720 };
const STORY_WAIT_PERCENT = 20;

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

/** A frame picture as raw RGB at the clip's size, cropped to its shape from the centre. */
async function rawFrame(picture: Buffer, format: VideoFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(picture)
    .resize({ width: format.width, height: format.height, fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer();
}

/**
 * A shot's clip (docs/storyboards.md, "Continuity"): from its first frame to its last, each missing end being the
 * generated picture, cross-faded over the clip; so its very first frame is the frame it was given to start from.
 */
async function framedClip(job: ProviderJob, context: ProviderContext, seed: string, format: VideoFormat) {
  const clip = generatedClip(seed, Number(job.input.durationMs ?? 2000), format);
  const pictures = await framePictures(job, context);
  const first = pictures.first ? await rawFrame(pictures.first.bytes, format) : null;
  const last = pictures.last ? await rawFrame(pictures.last.bytes, format) : null;
  if (!first && !last) return clip;
  const frames = (index: number) => {
    const t = clip.count > 1 ? index / (clip.count - 1) : 0;
    const from = first ?? clip.frames(index);
    const to = last ?? clip.frames(index);
    const mixed = Buffer.alloc(from.length);
    for (let byte = 0; byte < from.length; byte += 1) mixed[byte] = Math.round(from[byte]! * (1 - t) + to[byte]! * t);
    return mixed;
  };
  return { count: clip.count, frames };
}

type Output = ProviderJob['outputs'][number];

/**
 * A story's pictures at its aspect, as large as fits the animatic's 16:9 frame: the animatic letterboxes (or
 * pillarboxes) them on black, so a 1:1 story shows as a square in the middle of the film, never stretched.
 */
function storyPictureSize(aspect: number): { width: number; height: number } {
  const { width, height } = STORY_FRAME;
  return aspect >= width / height
    ? { width, height: Math.max(1, Math.round(width / aspect)) }
    : { width: Math.max(1, Math.round(height * aspect)), height };
}

/** A shot's generated picture as a PNG (sharp encodes the raw frame far faster than pngjs at this size). */
async function storyPicture(seed: string, size: { width: number; height: number }): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(deterministicRgb(seed, size.width, size.height), { raw: { ...size, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A story's shot as the animatic reads it: its picture for exactly its duration, numbered in order. */
function storyShot(index: number, shot: { prompt: string; durationMs: number }, picture: string): ExportShot {
  return {
    id: `shot-${index + 1}`,
    number: String(index + 1),
    caption: shot.prompt,
    action: null,
    dialogue: null,
    notes: null,
    camera: null,
    lensMm: null,
    durationMs: shot.durationMs,
    picture,
    video: null,
    voiceOver: null,
  };
}

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
      const clip = await framedClip(job, context, seed, format);
      return asset('video/mp4', await encodeFrames(clip.frames, clip.count, format, signal));
    }
    case 'video_story': {
      const shots = (input.shots as Array<{ prompt: string; durationMs: number }>) ?? [];
      const picture = storyPictureSize(aspectOf(input.aspectRatio ?? '16:9'));
      const film = await inScratch(async (dir) => {
        const exportShots: ExportShot[] = [];
        for (const [shotIndex, shot] of shots.entries()) {
          signal.throwIfAborted();
          const file = join(dir, `shot-${shotIndex + 1}.png`);
          await writeFile(file, await storyPicture(`${seed}:${shotIndex}:${shot.prompt}`, picture));
          exportShots.push(storyShot(shotIndex, shot, file));
        }
        return renderAnimatic(
          {
            // The animatic reads only the shots, their aspect and the music; the titles are for printed exports.
            projectName: '',
            canvasTitle: '',
            boardTitle: '',
            revision: 0,
            date: '',
            aspect: picture.width / picture.height,
            shots: exportShots,
            music: null,
          },
          STORY_OPTIONS,
          (percent, message) =>
            context.progress(
              Math.round(STORY_WAIT_PERCENT + (percent * (100 - STORY_WAIT_PERCENT)) / 100),
              `rendering: ${message.toLowerCase()}`,
            ),
          signal,
        );
      });
      return asset(film.contentType, film.bytes);
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
      return asset('video/mp4', await composeVideo(composed, format, audio, signal));
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

/** What the offline provider calls its renderer where a model is named (content credentials: docs/provenance.md). */
export const LOCAL_MODEL = 'canvas-mcp-offline';
export const LOCAL_PROVIDER = 'local';

export function createLocalProvider(options: LocalProviderOptions): RunProvider {
  return {
    name: LOCAL_PROVIDER,
    async execute(job, context) {
      if (options.executionLog) appendFileSync(options.executionLog, `${job.runId} ${job.attempt}\n`);
      // A video story's rendering reports the rest of the progress itself (so a cancel is charged for what ran).
      const waitPercent = job.operation === 'video_story' ? STORY_WAIT_PERCENT : 100;
      for (let step = 1; step <= STEPS; step += 1) {
        await abortableDelay(options.durationMs / STEPS, context.signal);
        context.progress(
          Math.round((step * waitPercent) / STEPS),
          step === STEPS && waitPercent === 100 ? 'finishing' : `generating (${step}/${STEPS})`,
        );
      }
      context.signal.throwIfAborted();
      const assets: ProducedAsset[] = [];
      for (const [index, output] of job.outputs.entries()) assets.push(await produce(job, output, index, context));
      return { assets, model: LOCAL_MODEL };
    },
  };
}
