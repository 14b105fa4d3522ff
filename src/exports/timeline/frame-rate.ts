import { FRAME_RATES, type FrameRate } from '../../contract/exports.js';
import { rateFacts } from '../../shared/timecode.js';

/**
 * Frame arithmetic for the editorial timelines (docs/deliverables.md, "Timelines"). Every writer (OTIO, FCP 7 XML,
 * CMX 3600 EDL, FCPXML) counts in whole frames from here, so the files agree to the frame with each other and with
 * the animatic. Rates and timecode are src/shared/timecode.ts, shared with review and the players.
 */

export {
  framesPerSecond,
  frameOfTimecode,
  rateFacts,
  timecode,
  timecodeStartFrame,
  type RateFacts,
} from '../../shared/timecode.js';

/**
 * Each shot's place in whole frames. Boundaries are rounded from the cumulative time rather than each duration on its
 * own, so rounding errors never pile up: the cut ends on the frame nearest the board's true length, whatever the shot
 * count. A shot the rounding would leave without a frame still gets one (an editor cannot place a zero-length clip);
 * that pushes later boundaries by the frame, never earlier ones.
 */
export function cutFrames(durationsMs: number[], rate: FrameRate): Array<{ startFrame: number; frames: number }> {
  const { numerator, denominator } = rateFacts(rate);
  // ms × numerator stays an exact integer in a double far past any board's length, so the one division rounds once.
  const boundary = (ms: number) => Math.round((ms * numerator) / (1000 * denominator));
  const placed: Array<{ startFrame: number; frames: number }> = [];
  let elapsedMs = 0;
  let startFrame = 0;
  for (const durationMs of durationsMs) {
    elapsedMs += Number.isFinite(durationMs) && durationMs > 0 ? durationMs : 0;
    const endFrame = Math.max(boundary(elapsedMs), startFrame + 1);
    placed.push({ startFrame, frames: endFrame - startFrame });
    startFrame = endFrame;
  }
  return placed;
}

/**
 * The frame rate of ours a file's rate stands for, given as frames a second (24000/1001 read as 23.976023976…) or as
 * a fraction; null for a rate the exports do not make (50, 59.94, 60).
 */
export function frameRateOf(numerator: number, denominator = 1): FrameRate | null {
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator <= 0) return null;
  const fps = numerator / denominator;
  for (const name of FRAME_RATES) {
    const facts = rateFacts(name);
    if (Math.abs(fps - facts.numerator / facts.denominator) < 0.0005) return name;
  }
  return null;
}
