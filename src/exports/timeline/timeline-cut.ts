import type { FrameRate } from '../../contract/exports.js';
import type { ThreadView } from '../../contract/review.js';
import type { CameraMove } from '../../contract/shots.js';
import { cutFrames } from './frame-rate.js';

/**
 * A board's cut as the editorial timelines (OTIO, FCP 7 XML, CMX 3600 EDL) read it: the shots in order, each a
 * stretch of one exported animatic. The timelines point at that one movie rather than at each shot's picture, so an
 * editor relinks a single file and the cut plays exactly as the animatic does.
 */
export interface TimelineCut {
  title: string; // the board's title
  rate: FrameRate;
  mediaFileName: string; // the exported animatic the clips refer to, e.g. "Opening-animatic.mp4"
  hasAudio: boolean; // the animatic has a sound track
  shots: Array<{
    id: string;
    number: string;
    durationMs: number;
    pictureUrl?: string | null;
    /** The shot's camera move, written as the clip's motion by the FCP 7 XML and the FCPXML. */
    move?: CameraMove | null;
  }>;
  /** Where the clips find the animatic, when not beside the timeline under its name (an .otioz's `media/…`). */
  mediaUrl?: string;
  /** The board's open review threads, written as markers at their frames (markers.ts); none when left out. */
  notes?: readonly ThreadView[];
}

export interface PlacedShot {
  id: string;
  number: string;
  /** The shot's first frame, in the animatic and (from the timeline's start) in the sequence alike. */
  startFrame: number;
  frames: number;
  /** One past the shot's last frame: the next shot's startFrame. */
  endFrame: number;
  move: CameraMove | null;
}

/** Each shot with its frames, from the one frame arithmetic all three writers share. */
export function placedShots(cut: TimelineCut): PlacedShot[] {
  const places = cutFrames(
    cut.shots.map((shot) => shot.durationMs),
    cut.rate,
  );
  return cut.shots.map((shot, index) => {
    const { startFrame, frames } = places[index]!; // one place per duration, in order
    const move = shot.move ?? null;
    return { id: shot.id, number: shot.number, startFrame, frames, endFrame: startFrame + frames, move };
  });
}

/** The cut's length in frames: the animatic's length, since the shots play back to back from its first frame. */
export function totalFrames(placed: PlacedShot[]): number {
  return placed.at(-1)?.endFrame ?? 0;
}
