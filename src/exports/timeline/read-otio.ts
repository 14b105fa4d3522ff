import { frameRateOf } from './frame-rate.js';
import {
  checkedClips,
  shotNumberInName,
  TimelineReadError,
  wholeFrames,
  type ReadClip,
  type ReadCut,
} from './read-cut.js';

/**
 * An OpenTimelineIO timeline (`.otio` JSON, as otio.py, Resolve and our own writer save it) read back as a cut: the
 * first video track's clips, in order, with their source ranges' lengths. Our clips carry the shot's id under the
 * `canvas-mcp` metadata key; clips from elsewhere are named by their name.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const schemaOf = (value: unknown): string =>
  isObject(value) && typeof value.OTIO_SCHEMA === 'string' ? value.OTIO_SCHEMA : '';
const schemaName = (value: unknown) => schemaOf(value).split('.')[0] ?? '';

interface Time {
  value: number;
  rate: number;
}

function timeOf(value: unknown): Time | null {
  if (!isObject(value) || typeof value.value !== 'number' || typeof value.rate !== 'number' || value.rate <= 0)
    return null;
  return { value: value.value, rate: value.rate };
}

/** The timeline inside a file: the file itself, or the first timeline of a SerializableCollection (a bin of them). */
function timelineIn(root: unknown): Json | null {
  if (schemaName(root) === 'Timeline') return root as Json;
  if (schemaName(root) === 'SerializableCollection' && Array.isArray((root as Json).children))
    return (
      (((root as Json).children as unknown[]).find((child) => schemaName(child) === 'Timeline') as Json | null) ?? null
    );
  return null;
}

export function readOtio(text: string): ReadCut {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new TimelineReadError(`The file is not OTIO: it is not JSON (${(error as Error).message}).`);
  }
  const timeline = timelineIn(root);
  if (!timeline)
    throw new TimelineReadError(
      `The file is JSON but not an OTIO timeline: its OTIO_SCHEMA is ${schemaOf(root) || 'missing'}, not Timeline.`,
    );
  const stack = timeline.tracks;
  const tracks =
    isObject(stack) && Array.isArray(stack.children) ? stack.children.filter((t) => schemaName(t) === 'Track') : [];
  const video = tracks.filter((track) => (track as Json).kind === 'Video') as Json[];
  if (video.length === 0) throw new TimelineReadError('The OTIO timeline has no video track.');
  const notes: string[] = [];
  if (video.length > 1)
    notes.push(
      `The timeline has ${video.length} video tracks: the first (${String(video[0]!.name ?? 'V1')}) is the cut.`,
    );

  const children = Array.isArray(video[0]!.children) ? (video[0]!.children as unknown[]) : [];
  const clips: ReadClip[] = [];
  let rate: number | null = null;
  for (const [index, child] of children.entries()) {
    const kind = schemaName(child);
    const item = child as Json;
    if (kind === 'Gap') {
      notes.push(`A gap at item ${index + 1} of the track is not a shot: left out.`);
      continue;
    }
    if (kind === 'Transition') {
      notes.push(`The transition at item ${index + 1} is read as a cut.`);
      continue;
    }
    if (kind !== 'Clip') {
      notes.push(`Item ${index + 1} of the track (${kind || 'unknown'}) is not a clip: left out.`);
      continue;
    }
    const name = typeof item.name === 'string' ? item.name : '';
    const range = isObject(item.source_range) ? item.source_range : null;
    const duration = timeOf(range?.duration);
    if (!duration) {
      notes.push(`The clip "${name}" has no source range: left out.`);
      continue;
    }
    rate ??= duration.rate;
    const frames = wholeFrames((duration.value * rate) / duration.rate, `The clip "${name}"`, notes);
    if (frames < 1) {
      notes.push(`The clip "${name}" has no frames: left out.`);
      continue;
    }
    const ours = isObject(item.metadata) && isObject(item.metadata['canvas-mcp']) ? item.metadata['canvas-mcp'] : null;
    const shotId = typeof ours?.shot_id === 'string' ? ours.shot_id : null;
    const number = typeof ours?.number === 'string' ? ours.number : null;
    clips.push({ name, shotId, shotNumber: shotNumberInName(name) ?? number, frames });
  }
  rate ??= timeOf(timeline.global_start_time)?.rate ?? null;
  const frameRate = rate === null ? null : frameRateOf(rate);
  if (!frameRate)
    throw new TimelineReadError(
      rate === null
        ? 'The OTIO timeline has no clip with a length.'
        : `The OTIO timeline runs at ${rate} frames a second; a board is cut at 23.976, 24, 25, 29.97 or 30.`,
    );
  return {
    format: 'otio',
    rate: frameRate,
    title: typeof timeline.name === 'string' ? timeline.name : null,
    clips: checkedClips(clips),
    notes,
  };
}
