import { fileInput } from '../../shared/media-arguments.js';

/**
 * The command lines that read an uploaded film or sound (src/assets/uploads/av-intake.ts), as pure functions: each
 * reads the upload as the demuxer its bytes were found to be, from its own file only (src/shared/media-arguments.ts).
 */

/** ffprobe: the streams and the container's length, as JSON. */
export function probeArguments(source: string, demuxer: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...fileInput(source, demuxer)];
}

/**
 * An ffmpeg command line that reads the upload: quiet, never reading stdin, `seek` options before the upload's input,
 * `encode` options after it, then the output file, overwritten.
 */
function ffmpegArguments(
  input: { source: string; demuxer: string; output: string },
  seek: string[],
  encode: string[],
): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    ...seek,
    ...fileInput(input.source, input.demuxer),
    ...encode,
    '-y',
    input.output,
  ];
}

/** ffmpeg: the first picture and sound streams copied into a fresh container, without metadata or chapters. */
export function copyArguments(options: {
  source: string;
  demuxer: string;
  video: boolean;
  audio: boolean;
  faststart: boolean;
  output: string;
}): string[] {
  return ffmpegArguments(
    options,
    [],
    [
      ...(options.video ? ['-map', '0:v:0'] : []),
      ...(options.audio ? ['-map', '0:a:0'] : []),
      '-c',
      'copy',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      ...(options.faststart ? ['-movflags', '+faststart'] : []),
    ],
  );
}

/** ffmpeg: one JPEG frame at `atSeconds`, at most `edge` pixels wide. */
export function posterArguments(options: {
  source: string;
  demuxer: string;
  atSeconds: number;
  edge: number;
  output: string;
}): string[] {
  return ffmpegArguments(
    options,
    ['-ss', String(options.atSeconds)],
    ['-frames:v', '1', '-vf', `scale='min(${options.edge},iw)':-2`, '-q:v', '4'],
  );
}
