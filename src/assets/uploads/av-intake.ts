import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { demuxerOf } from '../../shared/media-arguments.js';
import { ffmpegPath, ffprobePath } from '../../shared/media-binaries.js';
import { copyArguments, posterArguments, probeArguments } from './av-arguments.js';
import { UploadRefused, type PreparedUpload } from './prepared.js';
import { THUMBNAIL_EDGE } from './image-intake.js';

/**
 * A film or a sound as it is kept: ffprobe reads its streams and length (a file it cannot read is refused as damaged),
 * the streams are copied into a fresh container without the file's metadata (a phone's location, the device, chapters)
 * and without data or subtitle streams, and a film gets a poster from its first second. Nothing is re-encoded: copying
 * is fast whatever the size. Both tools read the upload as the format its bytes were found to be, from its own file
 * only, so a playlist in disguise cannot make them open another file or a URL.
 */

/** ffprobe's answer, parsed at the edge: what the rest reads of it. */
const Probe = z.object({
  streams: z.array(
    z.object({
      codec_type: z.string(),
      width: z.number().optional(),
      height: z.number().optional(),
      tags: z.record(z.string(), z.string()).optional(),
      side_data_list: z.array(z.object({ rotation: z.number().optional() }).loose()).optional(),
      disposition: z.object({ attached_pic: z.number().optional() }).loose().optional(),
    }),
  ),
  format: z.object({ duration: z.string().optional() }).loose(),
});

/** A long copy of a large film still ends; a tool that hangs on a hostile file does not hold the upload forever. */
const TOOL_TIMEOUT_MS = 10 * 60_000;

const CONTAINER: Record<string, { extension: string; faststart: boolean }> = {
  'video/mp4': { extension: 'mp4', faststart: true },
  'video/quicktime': { extension: 'mov', faststart: true },
  'video/webm': { extension: 'webm', faststart: false },
  'video/x-matroska': { extension: 'mkv', faststart: false },
  'audio/mpeg': { extension: 'mp3', faststart: false },
  'audio/wav': { extension: 'wav', faststart: false },
  'audio/ogg': { extension: 'ogg', faststart: false },
  'audio/opus': { extension: 'opus', faststart: false },
  'audio/aac': { extension: 'aac', faststart: false },
  'audio/flac': { extension: 'flac', faststart: false },
  'audio/mp4': { extension: 'm4a', faststart: true },
  'audio/x-m4a': { extension: 'm4a', faststart: true },
};

/** A film container holding only sound is kept as sound, under the sound type of that container. */
const SOUND_IN_FILM: Record<string, string> = {
  'video/mp4': 'audio/mp4',
  'video/quicktime': 'audio/mp4',
  'video/webm': 'audio/webm',
  'video/x-matroska': 'audio/webm',
};

export async function prepareAudioVideo(source: string, mimeType: string, workDir: string): Promise<PreparedUpload> {
  // Read as the format its bytes were found to be, and nothing else (src/shared/media-arguments.ts).
  const demuxer = demuxerOf(mimeType);
  const probe = await probeFile(source, demuxer);
  const video = probe.streams.find((stream) => stream.codec_type === 'video' && !isCoverArt(stream));
  const audio = probe.streams.find((stream) => stream.codec_type === 'audio');
  const what = mimeType.startsWith('video/') ? 'film' : 'sound';
  if (!video && !audio)
    throw new UploadRefused('invalid_arguments', `The ${what} holds no picture or sound that could be read.`);
  const duration = Number(probe.format.duration);
  const durationMs = Number.isFinite(duration) ? Math.round(duration * 1000) : null;
  const container = CONTAINER[mimeType]!;
  const mainPath = join(workDir, `media.${container.extension}`);
  await tool(
    ffmpegPath(),
    copyArguments({
      source,
      demuxer,
      video: !!video,
      audio: !!audio,
      faststart: container.faststart,
      output: mainPath,
    }),
    what,
  );
  const kept = (await stat(mainPath)).size;
  if (!video) {
    return {
      mediaKind: 'audio',
      main: { path: mainPath, mimeType: SOUND_IN_FILM[mimeType] ?? mimeType, byteSize: kept },
      thumbnail: null,
      width: null,
      height: null,
      durationMs,
    };
  }
  const posterPath = join(workDir, 'poster.jpg');
  const atSeconds = durationMs !== null && durationMs > 2000 ? 1 : 0;
  await tool(
    ffmpegPath(),
    posterArguments({ source, demuxer, atSeconds, edge: THUMBNAIL_EDGE, output: posterPath }),
    what,
  );
  const turned = Math.abs(rotationOf(video)) % 180 === 90;
  const width = video.width ?? null;
  const height = video.height ?? null;
  return {
    mediaKind: 'video',
    main: { path: mainPath, mimeType, byteSize: kept },
    thumbnail: { path: posterPath, mimeType: 'image/jpeg', byteSize: (await stat(posterPath)).size },
    width: turned ? height : width,
    height: turned ? width : height,
    durationMs,
  };
}

type ProbedStream = z.infer<typeof Probe>['streams'][number];

/** A sound file's album cover is a "video" stream of one picture: it does not make the sound a film. */
function isCoverArt(stream: ProbedStream): boolean {
  return stream.disposition?.attached_pic === 1;
}

/** A phone's portrait film is stored sideways with a rotation to show it upright. */
function rotationOf(stream: ProbedStream): number {
  const tagged = Number(stream.tags?.['rotate'] ?? 0);
  const side = stream.side_data_list?.find((entry) => entry.rotation !== undefined)?.rotation ?? 0;
  return tagged || side;
}

async function probeFile(source: string, demuxer: string): Promise<z.infer<typeof Probe>> {
  const out = await tool(ffprobePath(), probeArguments(source, demuxer), 'file');
  const parsed = Probe.safeParse(JSON.parse(out || '{}'));
  if (!parsed.success) throw new UploadRefused('invalid_arguments', 'The file could not be read: it is damaged.');
  return parsed.data;
}

function tool(binary: string, args: string[], what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { timeout: TOOL_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          return reject(new Error(`${binary} is missing: run npm install (it ships ffmpeg and ffprobe).`));
        // ffmpeg's last line says what broke; the work folder's paths are cut out of it.
        const reason =
          stderr
            .trim()
            .split('\n')
            .at(-1)
            ?.replace(/(?:file:)?\/\S+\//g, '')
            .slice(0, 200) ?? '';
        reject(
          new UploadRefused(
            'invalid_arguments',
            `The ${what} could not be read: it is damaged or cut short${reason ? ` (${reason})` : ''}.`,
            { reason },
          ),
        );
      },
    );
  });
}
