import { fileInput } from '../../shared/media-arguments.js';

/**
 * The command lines that read an uploaded film or sound (src/assets/uploads/av-intake.ts), as pure functions: each
 * reads the upload as the demuxer its bytes were found to be, from its own file only (src/shared/media-arguments.ts).
 */

/** ffprobe: the streams and the container's length, as JSON. */
export function probeArguments(source: string, demuxer: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...fileInput(source, demuxer)];
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
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    ...fileInput(options.source, options.demuxer),
    ...(options.video ? ['-map', '0:v:0'] : []),
    ...(options.audio ? ['-map', '0:a:0'] : []),
    '-c',
    'copy',
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    ...(options.faststart ? ['-movflags', '+faststart'] : []),
    '-y',
    options.output,
  ];
}

/** ffmpeg: one JPEG frame at `atSeconds`, at most `edge` pixels wide. */
export function posterArguments(options: {
  source: string;
  demuxer: string;
  atSeconds: number;
  edge: number;
  output: string;
}): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-ss',
    String(options.atSeconds),
    ...fileInput(options.source, options.demuxer),
    '-frames:v',
    '1',
    '-vf',
    `scale='min(${options.edge},iw)':-2`,
    '-q:v',
    '4',
    '-y',
    options.output,
  ];
}
