import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Where ffmpeg and ffprobe are: the binaries the `@ffmpeg-installer/ffmpeg` and `@ffprobe-installer/ffprobe` npm
 * packages ship for this platform, so `npm install` alone brings every media feature (nothing downloaded at run
 * time). `CANVAS_MCP_FFMPEG` / `CANVAS_MCP_FFPROBE` point at other builds (a newer one: docs/security.md, "Storage and
 * media bounds"); a platform the packages do not cover falls back to the ones on the PATH.
 */

const require = createRequire(import.meta.url);

const TOOLS = {
  ffmpeg: { env: 'CANVAS_MCP_FFMPEG', packageName: '@ffmpeg-installer/ffmpeg' },
  ffprobe: { env: 'CANVAS_MCP_FFPROBE', packageName: '@ffprobe-installer/ffprobe' },
} as const;
type MediaTool = keyof typeof TOOLS;

/** Where a binary comes from: the variable, the npm package, or the PATH. */
export type MediaBinarySource = 'environment' | 'bundled' | 'path';

function packaged(name: string): string | null {
  try {
    return (require(name) as { path: string }).path;
  } catch {
    return null;
  }
}

function locate(tool: MediaTool): { path: string; source: MediaBinarySource } {
  const { env, packageName } = TOOLS[tool];
  const given = process.env[env];
  if (given) return { path: given, source: 'environment' };
  const bundled = packaged(packageName);
  return bundled ? { path: bundled, source: 'bundled' } : { path: tool, source: 'path' };
}

let ffmpeg: string | undefined;
let ffprobe: string | undefined;

export function ffmpegPath(): string {
  ffmpeg ??= locate('ffmpeg').path;
  return ffmpeg;
}

export function ffprobePath(): string {
  ffprobe ??= locate('ffprobe').path;
  return ffprobe;
}

/** A build older than this many years has missed fixes to the demuxers that read uploads. */
const OLD_AFTER_YEARS = 2;

/** The year a build was made, from its `-version` line ("… Copyright (c) 2000-2018 the FFmpeg developers"). */
export function buildYearOf(versionLine: string): number | null {
  const year = /Copyright \(c\) \d{4}-(\d{4})/.exec(versionLine)?.[1];
  return year ? Number(year) : null;
}

/** What `doctor` says of a build too old to trust with uploads, or null. */
export function oldBuildWarning(
  tool: MediaTool,
  source: MediaBinarySource,
  builtIn: number | null,
  thisYear: number,
): string | null {
  if (builtIn === null || thisYear - builtIn <= OLD_AFTER_YEARS) return null;
  const which = source === 'bundled' ? `the ${tool} bundled with canvas-mcp` : `this ${tool}`;
  return `${which} was built in ${builtIn}, without the fixes to its demuxers since: set ${TOOLS[tool].env} to a current ${tool} (docs/security.md, "Storage and media bounds").`;
}

export interface MediaBinaryReport {
  tool: MediaTool;
  path: string;
  source: MediaBinarySource;
  /** The first line of `-version`; null when it does not run. */
  version: string | null;
  warning: string | null;
}

/** Which ffmpeg and ffprobe this process runs, and how old they are (`canvas-mcp doctor`). */
export async function describeMediaBinaries(thisYear = new Date().getFullYear()): Promise<MediaBinaryReport[]> {
  return Promise.all(
    (Object.keys(TOOLS) as MediaTool[]).map(async (tool) => {
      const { path, source } = locate(tool);
      const version = await firstLineOf(path);
      const warning =
        version === null
          ? `${path} does not run: uploads of films and sound, and video runs, fail until ${TOOLS[tool].env} names a ${tool}.`
          : oldBuildWarning(tool, source, buildYearOf(version), thisYear);
      return { tool, path, source, version, warning };
    }),
  );
}

function firstLineOf(binary: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(binary, ['-version'], { timeout: 10_000 }, (error, stdout) =>
      resolve(error ? null : (stdout.split('\n')[0]?.trim() ?? null)),
    );
  });
}
