import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { otioTimeline } from './otio.js';
import type { TimelineCut } from './timeline-cut.js';

/**
 * The cut as an OTIO bundle (`.otioz`, OpenTimelineIO's file bundle adapter): a zip holding `content.otio`, a
 * `version.txt` and a `media/` folder with the animatic the clips are cut from and each shot's picture, every clip's
 * references rewritten to those relative paths, so the one file opens with its media anywhere. Media is stored
 * without compression (MP4, PNG and JPEG are compressed already), as OTIO's own bundler does.
 */

/** The bundle format version OTIO's file bundle adapter writes. */
const BUNDLE_VERSION = '1.0.0';

/** A file name from a shot number that is safe in any zip reader: letters, digits, dashes. */
const safe = (value: string) => value.replace(/[^A-Za-z0-9-]+/g, '-').slice(0, 40) || 'shot';

export async function otiozBundle(
  cut: TimelineCut,
  animatic: Buffer,
  shots: ReadonlyArray<{ id: string; number: string; picture: string | null }>,
): Promise<{ bytes: Buffer; warnings: string[] }> {
  const mediaPath = `media/${cut.mediaFileName}`;
  const files: Zippable = {};
  const warnings: string[] = [];
  const pictureUrls = new Map<string, string>();
  for (const [index, shot] of shots.entries()) {
    if (!shot.picture) continue;
    const extension = extname(shot.picture).toLowerCase() || '.png';
    const path = `media/shot-${String(index + 1).padStart(3, '0')}-${safe(shot.number)}${extension}`;
    try {
      files[path] = [new Uint8Array(await readFile(shot.picture)), { level: 0 }];
      pictureUrls.set(shot.id, path);
    } catch {
      warnings.push(`Shot ${shot.number}'s picture could not be read: the bundle leaves it out.`);
    }
  }
  const content = otioTimeline({
    ...cut,
    mediaUrl: mediaPath,
    shots: cut.shots.map((shot) => ({ ...shot, pictureUrl: pictureUrls.get(shot.id) ?? null })),
  });
  const zip = zipSync(
    {
      'content.otio': [new TextEncoder().encode(content), { level: 6 }],
      'version.txt': [new TextEncoder().encode(BUNDLE_VERSION), { level: 0 }],
      [mediaPath]: [new Uint8Array(animatic), { level: 0 }],
      ...files,
    },
    // A fixed time, so the same revision gives the same bundle byte for byte.
    { mtime: new Date('2000-01-01T00:00:00Z') },
  );
  return { bytes: Buffer.from(zip), warnings };
}
