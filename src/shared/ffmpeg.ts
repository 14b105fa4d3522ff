import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withProtocolWhitelist } from './media-arguments.js';
import { ffmpegPath, ffprobePath } from './media-binaries.js';
import { ProviderError } from './provider-error.js';

/**
 * Video and audio encoding through ffmpeg (docs/runs.md, "Providers"), the build the `@ffmpeg-installer/ffmpeg` npm
 * package ships (src/shared/media-binaries.ts), run as a child process. MP4 (H.264, AAC): every player, browser and
 * editor opens it, and content credentials embed in it (WebM has no place for them); WAV for trimmed audio. An ffmpeg
 * that is missing fails the run with a message saying so.
 */

export interface VideoFormat {
  width: number;
  height: number;
  fps: number;
}

/** Even dimensions: the yuv420p pixel format needs them. */
export function evenSize(width: number, height: number): { width: number; height: number } {
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  return { width: even(width), height: even(height) };
}

function missing(): ProviderError {
  return new ProviderError(
    'encoder_missing',
    'ffmpeg is missing on this server: run npm install (it ships ffmpeg), or set CANVAS_MCP_FFMPEG to an ffmpeg to run video and audio-trim nodes.',
    false,
  );
}

/** An encoder message as a person may see it: file paths of this server shortened to their file names. */
function withoutPaths(message: string): string {
  return message.replace(/(?:\/[^\s/:'"]+)+\/([^\s/:'"]+)/g, '$1');
}

/**
 * Runs ffmpeg with the given arguments, writing `input` to its stdin; rejects with its stderr on failure. `onStdout`
 * hears what ffmpeg writes to stdout (its `-progress pipe:1` reports).
 */
export function runFfmpeg(
  args: string[],
  signal: AbortSignal,
  input?: (stdin: NodeJS.WritableStream) => Promise<void>,
  onStdout?: (text: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // Every input held to files and our own pipes: a clip or a sound that is a playlist opens no URL.
    const head = ['-hide_banner', '-loglevel', 'error', ...(input ? [] : ['-nostdin'])];
    const child = spawn(ffmpegPath(), [...head, ...withProtocolWhitelist(args)], {
      stdio: [input ? 'pipe' : 'ignore', onStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => onStdout?.(chunk.toString()));
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', onAbort);
      reject(error.code === 'ENOENT' ? missing() : error);
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason as Error);
      else if (code === 0) resolve();
      else
        reject(
          new ProviderError(
            'encoder_failed',
            `ffmpeg failed: ${withoutPaths(stderr.trim().split('\n').at(-1) || `exit code ${code}`)}`,
            false,
          ),
        );
    });
    if (input && child.stdin) {
      child.stdin.on('error', () => undefined);
      input(child.stdin).then(
        () => child.stdin!.end(),
        (error: unknown) => {
          child.kill('SIGKILL');
          reject(error);
        },
      );
    }
  });
}

/** A scratch directory for one encoding, removed afterwards whatever happens. */
export async function inScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'canvas-mcp-media-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function write(stdin: NodeJS.WritableStream, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stdin.write(chunk)) {
      resolve();
      return;
    }
    const onDrain = () => {
      stdin.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      stdin.off('drain', onDrain);
      reject(error);
    };
    stdin.once('drain', onDrain);
    stdin.once('error', onError);
  });
}

/** H.264 in MP4 (faststart): what every player and editor opens, and a container C2PA content credentials embed in. */
const MP4 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];

/** Encodes raw RGB frames (one Buffer of width × height × 3 bytes each) into an MP4 video. */
export async function encodeFrames(
  frames: (index: number) => Buffer,
  count: number,
  format: VideoFormat,
  signal: AbortSignal,
): Promise<Buffer> {
  return inScratch(async (dir) => {
    const out = join(dir, 'out.mp4');
    await runFfmpeg(
      [
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${format.width}x${format.height}`,
        '-r',
        String(format.fps),
        '-i',
        'pipe:0',
        ...MP4,
        '-an',
        '-y',
        out,
      ],
      signal,
      async (stdin) => {
        for (let index = 0; index < count; index += 1) {
          signal.throwIfAborted();
          await write(stdin, frames(index));
        }
      },
    );
    return readFile(out);
  });
}

export interface ComposeClip {
  /** A video file to take the clip from, or frames to generate it from. */
  source: { file: string } | { frames: (index: number) => Buffer; count: number };
  trimStartMs: number;
  trimEndMs: number | null;
}

/**
 * Cuts each clip, scales it to one format and joins them in order; with an audio track, muxes it (AAC) for the
 * length of the video.
 */
export async function composeVideo(
  clips: ComposeClip[],
  format: VideoFormat,
  audioFile: string | null,
  signal: AbortSignal,
): Promise<Buffer> {
  return inScratch(async (dir) => {
    const inputs: string[] = [];
    for (const [index, clip] of clips.entries()) {
      if ('file' in clip.source) {
        inputs.push(clip.source.file);
      } else {
        const generated = join(dir, `generated-${index}.mp4`);
        const { frames, count } = clip.source;
        const bytes = await encodeFrames(frames, count, format, signal);
        await writeFile(generated, bytes);
        inputs.push(generated);
      }
    }
    const filters = clips.map((clip, index) => {
      const end = clip.trimEndMs === null ? '' : `:end=${clip.trimEndMs / 1000}`;
      return `[${index}:v]trim=start=${clip.trimStartMs / 1000}${end},setpts=PTS-STARTPTS,scale=${format.width}:${format.height},fps=${format.fps},format=yuv420p[v${index}]`;
    });
    const joined = `${clips.map((_, index) => `[v${index}]`).join('')}concat=n=${clips.length}:v=1:a=0[video]`;
    const out = join(dir, 'out.mp4');
    const audio = audioFile ? ['-i', audioFile] : [];
    const mapping = audioFile
      ? // The sound for exactly as long as the film: ffmpeg's -shortest overshoots by up to half a second on some builds.
        [
          '-map',
          '[video]',
          '-map',
          `${clips.length}:a`,
          '-c:a',
          'aac',
          '-t',
          String(await filmSeconds(clips, inputs, format)),
        ]
      : ['-map', '[video]', '-an'];
    await runFfmpeg(
      [
        ...inputs.flatMap((file) => ['-i', file]),
        ...audio,
        '-filter_complex',
        [...filters, joined].join(';'),
        ...mapping,
        ...MP4,
        '-y',
        out,
      ],
      signal,
    );
    return readFile(out);
  });
}

/** How long the joined film lasts: each clip's trimmed part of its source. */
async function filmSeconds(
  clips: readonly ComposeClip[],
  inputs: readonly string[],
  format: VideoFormat,
): Promise<number> {
  let total = 0;
  for (const [index, clip] of clips.entries()) {
    const whole = 'file' in clip.source ? await durationSeconds(inputs[index]!) : clip.source.count / format.fps;
    const end = clip.trimEndMs === null ? whole : Math.min(whole, clip.trimEndMs / 1000);
    total += Math.max(0, end - clip.trimStartMs / 1000);
  }
  return Math.round(total * 1000) / 1000;
}

/** A media file's duration in seconds, as ffprobe reads it from its container. */
export function durationSeconds(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      ffprobePath(),
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', '-protocol_whitelist', 'file', file],
      { timeout: 30_000 },
      (error, stdout) => {
        const seconds = Number(stdout.trim());
        if (error || !Number.isFinite(seconds))
          reject(new ProviderError('encoder_failed', 'ffprobe could not read the length of a clip.', false));
        else resolve(seconds);
      },
    );
  });
}

/**
 * The last frame of a video file as a PNG (the frame a continuing shot starts from: docs/storyboards.md,
 * "Continuity"). Decoded from a second before the end, each frame written over the one before, so what is left is the
 * last one the decoder gives, whatever the clip's length or frame rate.
 */
export async function lastFrame(file: string, signal: AbortSignal): Promise<Buffer> {
  return inScratch(async (dir) => {
    const out = join(dir, 'last.png');
    await runFfmpeg(['-sseof', '-1', '-i', file, '-an', '-update', '1', '-y', out], signal);
    return readFile(out).catch(() => {
      throw new ProviderError('encoder_failed', 'ffmpeg found no frame in the video.', false);
    });
  });
}

/** Cuts an audio file to [startMs, endMs) as 16-bit PCM WAV. */
export async function trimAudio(
  file: string,
  startMs: number,
  endMs: number | null,
  signal: AbortSignal,
): Promise<Buffer> {
  return inScratch(async (dir) => {
    const out = join(dir, 'out.wav');
    const length = endMs === null ? [] : ['-t', String(Math.max(0, endMs - startMs) / 1000)];
    await runFfmpeg(['-ss', String(startMs / 1000), '-i', file, ...length, '-c:a', 'pcm_s16le', '-y', out], signal);
    return readFile(out);
  });
}
