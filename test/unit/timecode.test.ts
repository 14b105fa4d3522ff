import { describe, expect, it } from 'vitest';
import { FRAME_RATES } from '../../src/contract/index.js';
import { frameAtMs, frameOfTimecode, msOfFrame, timecode } from '../../src/shared/timecode.js';

/**
 * One arithmetic of frames and SMPTE timecode (src/shared/timecode.ts), for the timelines, the animatic, review and
 * the players, checked against SMPTE 12M's drop-frame rule: at 29.97 the frame numbers 00 and 01 are skipped at the
 * start of every minute except minutes 00, 10, 20, 30, 40 and 50, and no picture is dropped.
 */

/** The frame numbers a 29.97 drop-frame clock shows, counted the long way: every label in order, skipping as 12M says. */
function* dropFrameLabels(hours: number): Generator<string> {
  const two = (value: number) => String(value).padStart(2, '0');
  for (let hour = 0; hour < hours; hour += 1)
    for (let minute = 0; minute < 60; minute += 1)
      for (let second = 0; second < 60; second += 1)
        for (let frame = 0; frame < 30; frame += 1) {
          if (second === 0 && frame < 2 && minute % 10 !== 0) continue;
          yield `${two(hour)}:${two(minute)}:${two(second)};${two(frame)}`;
        }
}

describe('SMPTE timecode', () => {
  it('labels every picture of three hours at 29.97 exactly as the drop-frame rule counts them, and reads each back', () => {
    let frame = 0;
    for (const label of dropFrameLabels(3)) {
      if (timecode(frame, '29.97', 0) !== label) expect(timecode(frame, '29.97', 0), `frame ${frame}`).toBe(label);
      if (frameOfTimecode(label, '29.97', 0) !== frame) expect(frameOfTimecode(label, '29.97', 0), label).toBe(frame);
      frame += 1;
    }
    // An hour of drop-frame timecode holds 107,892 pictures: the clock stays within 3.6 ms of the wall an hour.
    expect(frame).toBe(3 * 107_892);
    expect(timecode(107_892, '29.97', 0)).toBe('01:00:00;00');
  });

  it('refuses the frame numbers drop frame skips', () => {
    expect(frameOfTimecode('00:01:00;00', '29.97', 0)).toBeNull();
    expect(frameOfTimecode('00:01:00;01', '29.97', 0)).toBeNull();
    expect(frameOfTimecode('00:10:00;00', '29.97', 0)).toBe(17_982);
  });

  it('counts non-drop rates plainly: 24 labels to a second at 23.976 and 24, 25 at 25, 30 at 30', () => {
    expect(timecode(24 * 3600, '23.976', 0)).toBe('01:00:00:00');
    expect(timecode(24 * 3600, '24', 0)).toBe('01:00:00:00');
    expect(timecode(25 * 61 + 3, '25', 0)).toBe('00:01:01:03');
    expect(timecode(30 * 60, '30', 0)).toBe('00:01:00:00');
  });

  it.each(FRAME_RATES)('finds the frame showing at a moment, and where each frame starts, at %s', (rate) => {
    for (let frame = 0; frame < 5000; frame += 7) {
      const start = msOfFrame(frame, rate);
      expect(frameAtMs(start, rate), `frame ${frame}`).toBe(frame);
      // Halfway into the frame is still that frame.
      expect(frameAtMs((start + msOfFrame(frame + 1, rate)) / 2, rate)).toBe(frame);
    }
    expect(msOfFrame(24_000, '23.976')).toBe(1_001_000);
  });
});
