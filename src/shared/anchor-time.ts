import type { CommentAnchor } from '../contract/review.js';
import { timecode } from './timecode.js';

/**
 * Where in its film a review thread points, as people read it (docs/review.md, "Frames"): the Comments panel, the
 * marks under a player and the PDF's notes pages all say it the same way.
 */

/** A time as mm:ss, for a thread that names a time rather than a frame (what older clients send). */
export function formatTimecode(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A frame of a film as SMPTE timecode from 00:00:00:00 (the film's own media time), HH:MM:SS;FF at 29.97 drop frame. */
export function filmTimecode(frame: number, rate: NonNullable<CommentAnchor['rate']>): string {
  return timecode(frame, rate, 0);
}

/** "00:00:04:12 → 00:00:05:03 (24 fps)", "00:01:00;02 (29.97 fps drop frame)", "00:04"; null without a time. */
export function anchorTimeText(anchor: CommentAnchor): string | null {
  if (anchor.frame !== undefined && anchor.rate !== undefined) {
    const start = filmTimecode(anchor.frame, anchor.rate);
    const range = anchor.frame_out !== undefined && anchor.frame_out > anchor.frame;
    const rate = anchor.rate === '29.97' ? '29.97 fps drop frame' : `${anchor.rate} fps`;
    return `${range ? `${start} → ${filmTimecode(anchor.frame_out!, anchor.rate)}` : start} (${rate})`;
  }
  return anchor.timecode_ms === undefined ? null : formatTimecode(anchor.timecode_ms);
}
