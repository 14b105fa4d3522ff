import { XMLBuilder } from 'fast-xml-parser';
import type { FrameRate } from '../../contract/exports.js';
import { rateFacts, timecodeStartFrame } from './frame-rate.js';
import { placedShots, totalFrames, type PlacedShot, type TimelineCut } from './timeline-cut.js';
import { clipMotion, rounded } from './clip-motion.js';
import { shotAt, timelineMarkers } from './markers.js';
import { oneLine } from '../review-notes.js';

/**
 * The cut as FCPXML 1.10, the interchange of Final Cut Pro 10.6 on (and of DaVinci Resolve's FCPXML import): a
 * `<format>` with the frame's duration and size, the animatic as one `<asset>`, and a project whose sequence's spine
 * holds an `<asset-clip>` per shot. Times are rational seconds on frame boundaries ("1001/24000s" is one frame at
 * 23.976), so no reader rounds: a clip's `start` is its place in the animatic, its `offset` its place in the sequence,
 * which starts at 01:00:00:00 (`tcStart`) as the FCP 7 XML, the OTIO and the EDL do. Each clip carries the shot's id
 * in its metadata, which the conform reads back.
 */

export const FCPXML_VERSION = '1.10';

/** The metadata key our clips carry the shot's id under (reverse-DNS, as Apple's own keys are). */
export const SHOT_ID_KEY = 'com.canvas-mcp.shot-id';

/** The animatic's frame (1080p, as it is made by default); Final Cut conforms a 720p one to it. */
const FRAME = { width: 1920, height: 1080 } as const;

/** How Final Cut writes one frame's duration at each rate, and the name of its 1080p format. */
const FRAME_DURATIONS: Record<FrameRate, { numerator: number; denominator: number; name: string }> = {
  '23.976': { numerator: 1001, denominator: 24000, name: 'FFVideoFormat1080p2398' },
  '24': { numerator: 100, denominator: 2400, name: 'FFVideoFormat1080p24' },
  '25': { numerator: 100, denominator: 2500, name: 'FFVideoFormat1080p25' },
  '29.97': { numerator: 1001, denominator: 30000, name: 'FFVideoFormat1080p2997' },
  '30': { numerator: 100, denominator: 3000, name: 'FFVideoFormat1080p30' },
};

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A whole number of frames as rational seconds, reduced ("1001/24000s", "3600s", "0s"), exact in integers. */
export function framesAsTime(frames: number, rate: FrameRate): string {
  const { numerator, denominator } = FRAME_DURATIONS[rate];
  const top = frames * numerator;
  if (top === 0) return '0s';
  const divisor = gcd(top, denominator);
  const [n, d] = [top / divisor, denominator / divisor];
  return d === 1 ? `${n}s` : `${n}/${d}s`;
}

/** XML 1.0 cannot carry most control characters, even escaped. */
const text = (value: string) => value.replace(/(?![\t\n\r])[\p{Cc}\uFFFE\uFFFF]/gu, '');

/**
 * A shot's camera move as the clip's `adjust-transform`: position and scale keyframes from the clip's first frame to
 * its last, at times of the clip's own source (its `start` onwards). Position is in percent of the frame's height from
 * its centre, y up, as Final Cut writes it. Switched off (`enabled="0"`): the clip plays the animatic, where the move is
 * already in the picture; an editor who relinks the clip to the shot's still switches it on.
 */
function adjustTransform(shot: PlacedShot, time: (frames: number) => string) {
  const keyframes = clipMotion(shot.move!, shot.frames);
  const aspect = FRAME.width / FRAME.height;
  const position = (key: (typeof keyframes)[number]) =>
    `${rounded(key.offsetX * aspect * 100)} ${rounded(-key.offsetY * 100)}`;
  const scale = (key: (typeof keyframes)[number]) => `${rounded(key.scale)} ${rounded(key.scale)}`;
  const animation = (value: (key: (typeof keyframes)[number]) => string) => ({
    keyframeAnimation: {
      keyframe: keyframes.map((key) => ({ '@_time': time(shot.startFrame + key.frame), '@_value': value(key) })),
    },
  });
  return {
    '@_enabled': '0',
    '@_position': position(keyframes[0]!),
    '@_scale': scale(keyframes[0]!),
    param: [
      { '@_name': 'position', ...animation(position) },
      { '@_name': 'scale', ...animation(scale) },
    ],
  };
}

export function fcpxml(cut: TimelineCut): string {
  const { dropFrame } = rateFacts(cut.rate);
  const tcFormat = dropFrame ? 'DF' : 'NDF';
  const placed = placedShots(cut);
  const length = totalFrames(placed);
  const startFrame = timecodeStartFrame(cut.rate);
  const time = (frames: number) => framesAsTime(frames, cut.rate);
  const mediaName = text(cut.mediaFileName);
  const audio = cut.hasAudio
    ? { '@_hasAudio': '1', '@_audioSources': '1', '@_audioChannels': '2', '@_audioRate': '48000' }
    : {};

  const resources = {
    format: {
      '@_id': 'r1',
      '@_name': FRAME_DURATIONS[cut.rate].name,
      '@_frameDuration': time(1),
      '@_width': String(FRAME.width),
      '@_height': String(FRAME.height),
      '@_colorSpace': '1-1-1 (Rec. 709)',
    },
    asset: {
      '@_id': 'r2',
      '@_name': mediaName.replace(/\.[^.]+$/, ''),
      '@_start': '0s',
      '@_duration': time(length),
      '@_hasVideo': '1',
      '@_format': 'r1',
      ...audio,
      // Relative to the FCPXML, as the FCP 7 XML's pathurl: the animatic is kept beside the timeline (or relinked).
      'media-rep': { '@_kind': 'original-media', '@_src': `./${encodeURIComponent(mediaName)}` },
    },
  };

  // Review notes as markers, each in the clip whose frames hold it (a note on the board's animatic too: a spine holds
  // no markers of its own), at times of the clip's source, as its `start` is. An uncompleted to-do marker
  // (`completed="0"`) is how Final Cut shows a note still to do; a point lasts one frame, as Final Cut writes one.
  const markersIn = new Map<string, object[]>();
  for (const note of timelineMarkers(cut.notes ?? [], placed, cut.rate)) {
    const shot = note.shotId === null ? shotAt(placed, note.frame) : placed.find((each) => each.id === note.shotId);
    if (!shot) continue;
    const frames = Math.max(1, Math.min(note.frames, shot.endFrame - note.frame));
    markersIn.set(shot.id, [
      ...(markersIn.get(shot.id) ?? []),
      {
        '@_start': time(note.frame),
        '@_duration': time(frames),
        '@_value': text(note.name),
        '@_completed': '0',
        // An attribute's line breaks read back as spaces: the note is written on one line.
        '@_note': text(oneLine(note.note)),
      },
    ]);
  }

  const clips = placed.map((shot) => ({
    '@_ref': 'r2',
    '@_name': text(`Shot ${shot.number}`),
    '@_offset': time(startFrame + shot.startFrame),
    '@_start': time(shot.startFrame),
    '@_duration': time(shot.frames),
    '@_format': 'r1',
    '@_tcFormat': tcFormat,
    ...(cut.hasAudio ? { '@_audioRole': 'dialogue' } : {}),
    ...(shot.move ? { 'adjust-transform': adjustTransform(shot, time) } : {}),
    // After the adjustments and before the metadata, where FCPXML's DTD puts an asset-clip's markers.
    ...(markersIn.has(shot.id) ? { marker: markersIn.get(shot.id)! } : {}),
    metadata: { md: { '@_key': SHOT_ID_KEY, '@_value': text(shot.id) } },
  }));

  const title = text(cut.title);
  const document = {
    fcpxml: {
      '@_version': FCPXML_VERSION,
      resources,
      library: {
        event: {
          '@_name': title,
          project: {
            '@_name': title,
            sequence: {
              '@_format': 'r1',
              '@_duration': time(length),
              '@_tcStart': time(startFrame),
              '@_tcFormat': tcFormat,
              ...(cut.hasAudio ? { '@_audioLayout': 'stereo', '@_audioRate': '48k' } : {}),
              spine: { 'asset-clip': clips },
            },
          },
        },
      },
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, indentBy: '    ', suppressEmptyNode: true });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE fcpxml>\n\n${builder.build(document)}`;
}
