import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffprobePath } from '../../src/shared/media-binaries.js';

/** What ffprobe says about a media file: its streams and duration (the test's check that a file really decodes). */
export interface Probe {
  durationSeconds: number;
  streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; sample_rate?: string }>;
}

export function probe(bytes: Buffer): Probe {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-probe-'));
  try {
    const file = join(dir, 'media');
    writeFileSync(file, bytes);
    // Decoding every frame (-count_frames) proves the file plays, not only that its header parses.
    const out = execFileSync(ffprobePath(), [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=codec_type,codec_name,width,height,sample_rate,nb_read_frames:format=duration',
      '-of',
      'json',
      file,
    ]);
    const parsed = JSON.parse(out.toString()) as { streams: Probe['streams']; format: { duration: string } };
    return { durationSeconds: Number(parsed.format.duration), streams: parsed.streams };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
