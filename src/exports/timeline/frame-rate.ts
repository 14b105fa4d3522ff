import type { FrameRate } from '../../contract/exports.js';

/**
 * Frame arithmetic for the editorial timelines (docs/deliverables.md, "Timelines"). Every writer (OTIO, FCP 7 XML,
 * CMX 3600 EDL) counts in whole frames from here, so the three files agree to the frame with each other and with the
 * animatic.
 */

export interface RateFacts {
  /** The true rate as a fraction: NTSC rates run 1000/1001 slower than their timebase. */
  numerator: number;
  denominator: number;
  /** The whole number of frames a timecode second counts (FCP XML's `<timebase>`). */
  timebase: number;
  /** FCP XML's `<ntsc>`: the picture runs at timebase × 1000/1001. */
  ntsc: boolean;
  /**
   * Drop-frame timecode, so the timecode keeps to the wall clock. Only 29.97 drops: 23.976 has no drop-frame standard
   * (SMPTE 12M defines it for 30000/1001 alone), so its timecode runs 0.1% slow of the clock, as editors expect.
   */
  dropFrame: boolean;
}

const RATES = {
  '23.976': { numerator: 24000, denominator: 1001, timebase: 24, ntsc: true, dropFrame: false },
  '24': { numerator: 24, denominator: 1, timebase: 24, ntsc: false, dropFrame: false },
  '25': { numerator: 25, denominator: 1, timebase: 25, ntsc: false, dropFrame: false },
  '29.97': { numerator: 30000, denominator: 1001, timebase: 30, ntsc: true, dropFrame: true },
  '30': { numerator: 30, denominator: 1, timebase: 30, ntsc: false, dropFrame: false },
} as const satisfies Record<FrameRate, RateFacts>;

/** The rational rate, timebase, NTSC flag and drop-frame flag of a frame rate. */
export function rateFacts(rate: FrameRate): RateFacts {
  return RATES[rate];
}

/** The true rate in frames a second (24000/1001 = 23.976023976…), the number OTIO's RationalTime carries. */
export function framesPerSecond(rate: FrameRate): number {
  const { numerator, denominator } = RATES[rate];
  return numerator / denominator;
}

/**
 * Each shot's place in whole frames. Boundaries are rounded from the cumulative time rather than each duration on its
 * own, so rounding errors never pile up: the cut ends on the frame nearest the board's true length, whatever the shot
 * count. A shot the rounding would leave without a frame still gets one (an editor cannot place a zero-length clip);
 * that pushes later boundaries by the frame, never earlier ones.
 */
export function cutFrames(durationsMs: number[], rate: FrameRate): Array<{ startFrame: number; frames: number }> {
  const { numerator, denominator } = RATES[rate];
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

/** Drop-frame constants for 29.97: 2 frame numbers skipped each minute but every tenth. */
const DF = { dropped: 2, framesPerMinute: 30 * 60 - 2, framesPer10Minutes: 10 * (30 * 60) - 9 * 2 } as const;

/**
 * The timeline frame at which timecode HH:00:00:00 falls, counting from 00:00:00:00. Drop-frame hours hold fewer
 * frames (107,892 rather than 108,000), since drop frame skips numbers, not pictures.
 */
export function timecodeStartFrame(rate: FrameRate, startHour = 1): number {
  const { timebase, dropFrame } = RATES[rate];
  return startHour * (dropFrame ? 6 * DF.framesPer10Minutes : 3600 * timebase);
}

/**
 * SMPTE timecode of a timeline frame. Timelines start at 01:00:00:00 by default, as editors expect of record
 * timecode (the hour before it was left for bars, tone and slate in tape days; Resolve and Avid still start a new
 * timeline there), while the animatic's own media starts at 00:00:00:00 (pass startHour 0 for source timecode).
 * Non-drop is HH:MM:SS:FF; drop-frame is HH:MM:SS;FF, the semicolon telling the two apart. Wraps after 24 hours.
 */
export function timecode(frame: number, rate: FrameRate, startHour = 1): string {
  const { timebase, dropFrame } = RATES[rate];
  const framesPerDay = 24 * timecodeStartFrame(rate, 1);
  let count =
    (((timecodeStartFrame(rate, startHour) + Math.round(frame)) % framesPerDay) + framesPerDay) % framesPerDay;
  if (dropFrame) {
    // Turn the count of pictures into the count of frame numbers shown, adding back the numbers skipped so far.
    const tens = Math.floor(count / DF.framesPer10Minutes);
    const rest = count % DF.framesPer10Minutes;
    const minutesDropped = rest < DF.dropped ? 0 : Math.floor((rest - DF.dropped) / DF.framesPerMinute);
    count += 9 * DF.dropped * tens + DF.dropped * minutesDropped;
  }
  const two = (value: number) => String(value).padStart(2, '0');
  const frames = count % timebase;
  const seconds = Math.floor(count / timebase) % 60;
  const minutes = Math.floor(count / (timebase * 60)) % 60;
  const hours = Math.floor(count / (timebase * 3600));
  return `${two(hours)}:${two(minutes)}:${two(seconds)}${dropFrame ? ';' : ':'}${two(frames)}`;
}

/**
 * The timeline frame a SMPTE timecode stands for: the inverse of `timecode`, so a cut read back from an EDL lands on
 * the frames it was written from. Drop frame is read from the separator (`;` or `.`) or the rate, whichever says so;
 * null when the text is not a timecode or names a frame number drop frame skips.
 */
export function frameOfTimecode(text: string, rate: FrameRate, startHour = 1): number | null {
  const match = /^(\d{2}):(\d{2}):(\d{2})([:;.,])(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [hours, minutes, seconds, frames] = [match[1], match[2], match[3], match[5]].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const { timebase } = RATES[rate];
  const dropFrame = RATES[rate].dropFrame || match[4] === ';' || match[4] === ',';
  if (minutes > 59 || seconds > 59 || frames >= timebase) return null;
  const totalMinutes = hours * 60 + minutes;
  let count = (totalMinutes * 60 + seconds) * timebase + frames;
  if (dropFrame) {
    if (seconds === 0 && frames < DF.dropped && minutes % 10 !== 0) return null;
    // Frame numbers shown, less the numbers skipped in every minute but each tenth.
    count -= DF.dropped * (totalMinutes - Math.floor(totalMinutes / 10));
  }
  return count - timecodeStartFrame(rate, startHour);
}

/**
 * The frame rate of ours a file's rate stands for, given as frames a second (24000/1001 read as 23.976023976…) or as
 * a fraction; null for a rate the exports do not make (50, 59.94, 60).
 */
export function frameRateOf(numerator: number, denominator = 1): FrameRate | null {
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator <= 0) return null;
  const fps = numerator / denominator;
  for (const [name, facts] of Object.entries(RATES) as Array<[FrameRate, RateFacts]>) {
    if (Math.abs(fps - facts.numerator / facts.denominator) < 0.0005) return name;
  }
  return null;
}
