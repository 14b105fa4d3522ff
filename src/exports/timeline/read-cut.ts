import type { TimelineFormat } from '../../contract/conform.js';
import type { FrameRate } from '../../contract/exports.js';

/**
 * A cut as the timeline readers (read-otio, read-fcp-xml, read-fcpxml, read-edl) give it back, whatever the format:
 * the clips of the picture track in the order they play, each with its length in whole frames and what names its
 * shot. The conform (src/backend/storyboard/conform.ts) turns this into a revision of the board.
 */
export interface ReadClip {
  /** The clip's name as the file gives it ("Shot 4", or whatever the editor renamed it to). */
  name: string;
  /** The shot's stable id, when the file carries it (our OTIO's metadata, our FCPXML's clip metadata). */
  shotId: string | null;
  /** The shot number the clip's name (or an EDL comment) gives: "Shot 2A" → 2A. */
  shotNumber: string | null;
  /** The clip's length on the timeline, in frames of the cut's rate. */
  frames: number;
}

export interface ReadCut {
  format: TimelineFormat;
  rate: FrameRate;
  title: string | null;
  clips: ReadClip[];
  /** What the reader saw but did not use, in words (a gap, a transition, a second picture track). */
  notes: string[];
}

/** A file a reader cannot take, with the reason in words a person can act on. */
export class TimelineReadError extends Error {}

/** The most clips a conform reads: a board holds at most 1,000 shots, and a cut of more is not one of ours. */
export const READ_CLIPS_MAX = 2_000;

/**
 * The shot number in a clip's name: "Shot 2A" as our writers name clips, also "shot_12", "SH 3" or a bare "2A".
 * Lower-case letters are taken as capitals (an editor's "shot 2a").
 */
export function shotNumberInName(name: string): string | null {
  const trimmed = name.trim();
  const match =
    /^(?:shot|sh)[\s_.#-]*([0-9]{1,4}[A-Za-z]{0,2})\b/i.exec(trimmed) ?? /^([0-9]{1,4}[A-Za-z]{0,2})$/.exec(trimmed);
  return match ? match[1]!.toUpperCase() : null;
}

/** The picture-track clips checked against the limit, so a huge file is refused with a reason, not read on. */
export function checkedClips(clips: ReadClip[]): ReadClip[] {
  if (clips.length > READ_CLIPS_MAX)
    throw new TimelineReadError(`The timeline has ${clips.length} clips; a conform reads at most ${READ_CLIPS_MAX}.`);
  return clips;
}

/** A clip's whole frames from a length that should be whole; a fraction (a speed change, a mixed rate) is rounded. */
export function wholeFrames(value: number, what: string, notes: string[]): number {
  const rounded = Math.round(value);
  if (Math.abs(value - rounded) > 1e-6) notes.push(`${what} is ${value.toFixed(3)} frames long: read as ${rounded}.`);
  return rounded;
}

/**
 * XML that declares its own entities is refused before parsing: no timeline of any editor needs one, and entity
 * expansion is how a small file becomes a huge one.
 */
export function refuseEntities(text: string): void {
  if (/<!ENTITY/i.test(text)) throw new TimelineReadError('The file declares XML entities, which no timeline needs.');
}
