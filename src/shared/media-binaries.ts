import { createRequire } from 'node:module';

/**
 * Where ffmpeg and ffprobe are: the binaries the `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe` npm
 * packages ship for this platform, so `npm install` alone brings every media feature (nothing downloaded at run
 * time). `CANVAS_MCP_FFMPEG` / `CANVAS_MCP_FFPROBE` point at other builds; a platform the packages do not cover falls
 * back to the ones on the PATH.
 */

const require = createRequire(import.meta.url);

function packaged(name: string): string | null {
  try {
    return (require(name) as { path: string }).path;
  } catch {
    return null;
  }
}

let ffmpeg: string | undefined;
let ffprobe: string | undefined;

export function ffmpegPath(): string {
  ffmpeg ??= process.env.CANVAS_MCP_FFMPEG ?? packaged('@ffmpeg-installer/ffmpeg') ?? 'ffmpeg';
  return ffmpeg;
}

export function ffprobePath(): string {
  ffprobe ??= process.env.CANVAS_MCP_FFPROBE ?? packaged('@ffprobe-installer/ffprobe') ?? 'ffprobe';
  return ffprobe;
}
