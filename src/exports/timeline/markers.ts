import type { FrameRate } from '../../contract/exports.js';
import type { CommentAnchor, ThreadView } from '../../contract/review.js';
import { frameAtMs, msOfFrame } from '../../shared/timecode.js';
import { noteName, noteText } from '../review-notes.js';
import type { PlacedShot } from './timeline-cut.js';

/**
 * The board's open review notes as timeline markers (docs/deliverables.md, "Markers and notes pages"), placed once
 * here for every writer: a note on a shot sits on that shot's clip, at its first frame or at the frame or range the
 * note names; a note on the board's animatic at a frame or range sits on the sequence there. Frames a thread names
 * count in the board's animatic from its first frame (what the Comments form takes from the player), at the thread's
 * own rate, and are carried to the timeline's rate through their time when the two differ.
 */

/** An open note: still to do. Editors show RED markers (OTIO, EDL LOC) and uncompleted to-do markers (FCPXML) as such. */
export const OPEN_NOTE_COLOR = 'RED';

export interface TimelineMarker {
  /** The shot whose clip holds the marker; null for a note on the board's animatic, which the sequence holds. */
  shotId: string | null;
  /** The marker's first frame, from the sequence's first frame: the animatic's frame, the clips' source frame. */
  frame: number;
  /** How many frames it marks: 0 for a point. */
  frames: number;
  /** The first comment's writer and words, one bounded line. */
  name: string;
  /** Every comment of the thread, "writer: words" a line, bounded. */
  note: string;
  color: typeof OPEN_NOTE_COLOR;
  threadId: string;
  commentId: string;
  author: string;
  audience: ThreadView['audience'];
}

/** A frame at one rate as the frame showing at the same moment at another. */
function atRate(frame: number, from: FrameRate, to: FrameRate): number {
  return from === to ? frame : frameAtMs(msOfFrame(frame, from), to);
}

/** The frames an anchor names at the timeline's rate (a range's last frame included), or null when it names none. */
function framesNamed(anchor: CommentAnchor | null, rate: FrameRate): { frame: number; frames: number } | null {
  if (anchor?.frame !== undefined && anchor.rate !== undefined) {
    const frame = atRate(anchor.frame, anchor.rate, rate);
    if (anchor.frame_out === undefined) return { frame, frames: 0 };
    return { frame, frames: Math.max(1, atRate(anchor.frame_out + 1, anchor.rate, rate) - frame) };
  }
  if (anchor?.timecode_ms !== undefined) return { frame: frameAtMs(anchor.timecode_ms, rate), frames: 0 };
  return null;
}

/** A span moved inside the frames from `first` to one before `end` (a note past its clip, or past the cut's end). */
function inside(span: { frame: number; frames: number }, first: number, end: number) {
  const frame = Math.min(Math.max(span.frame, first), end - 1);
  const frames = span.frames === 0 ? 0 : Math.max(1, Math.min(span.frame + span.frames, end) - frame);
  return { frame, frames };
}

/**
 * The notes as markers, in the order of their frames. A note on a shot the cut leaves out (omitted, or gone from the
 * board), or on the board without a frame, has no place on the timeline and is left out.
 */
export function timelineMarkers(
  notes: readonly ThreadView[],
  placed: readonly PlacedShot[],
  rate: FrameRate,
): TimelineMarker[] {
  const end = placed.at(-1)?.endFrame ?? 0;
  const markers: TimelineMarker[] = [];
  for (const thread of notes) {
    const first = thread.comments[0];
    if (!first || thread.status !== 'open') continue;
    const named = framesNamed(thread.anchor, rate);
    let span: { frame: number; frames: number };
    if (thread.shot_id !== null) {
      const shot = placed.find((each) => each.id === thread.shot_id);
      if (!shot) continue;
      span = named ? inside(named, shot.startFrame, shot.endFrame) : { frame: shot.startFrame, frames: 0 };
    } else {
      if (!named || end === 0) continue;
      span = inside(named, 0, end);
    }
    markers.push({
      shotId: thread.shot_id,
      ...span,
      name: noteName(thread),
      note: noteText(thread),
      color: OPEN_NOTE_COLOR,
      threadId: thread.thread_id,
      commentId: first.comment_id,
      author: first.author.name,
      audience: thread.audience,
    });
  }
  // Stable: notes at the same frame keep the order they were written in.
  return markers.sort((a, b) => a.frame - b.frame);
}

/** The shot whose frames hold a frame of the sequence (the last shot for a frame past the end). */
export function shotAt(placed: readonly PlacedShot[], frame: number): PlacedShot | undefined {
  return placed.find((shot) => frame >= shot.startFrame && frame < shot.endFrame) ?? placed.at(-1);
}
