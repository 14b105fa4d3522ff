import type { FrameRate } from '../contract/exports.js';

/**
 * Frames and SMPTE timecode at the frame rates we make (23.976, 24, 25, 29.97 drop frame, 30): one arithmetic for the
 * editorial timelines, the animatic, review comments that name a frame, and the players that show them, so a frame
 * named anywhere is the same picture everywhere.
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
 * The frame showing at `ms` from the film's start. Half a millisecond is allowed for: a frame's start is kept in whole
 * milliseconds (msOfFrame), so 583 ms is frame 14 at 24 fps (which starts at 583.33), not the end of frame 13.
 */
export function frameAtMs(ms: number, rate: FrameRate): number {
  const { numerator, denominator } = RATES[rate];
  return Math.floor(((ms + 0.5) * numerator) / (1000 * denominator));
}

/** Where a frame starts, in whole milliseconds from the film's start (rounded: players seek by seconds). */
export function msOfFrame(frame: number, rate: FrameRate): number {
  const { numerator, denominator } = RATES[rate];
  return Math.round((frame * 1000 * denominator) / numerator);
}
