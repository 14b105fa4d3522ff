import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readGuideChoice } from '../src/model/guides.js';
import { LONG_PRESS_MS, LongPress } from '../src/model/long-press.js';
import { customFrameShape } from '../src/model/shots.js';

/**
 * The pure parts of framing guides and tablet input: a custom frame shape checked before it is saved, the guide choice
 * read back defensively, and a long press (a finger held still) told from a tap, a drag and a pinch.
 */

describe('customFrameShape', () => {
  it('takes a W:H every view can read, without its spaces', () => {
    expect(customFrameShape('1.43:1')).toEqual({ ratio: '1.43:1' });
    expect(customFrameShape(' 5 : 4 ')).toEqual({ ratio: '5:4' });
  });

  it('refuses anything else, naming the field and saying nothing was saved', () => {
    for (const typed of ['wide', '5x4', '10:1', '0:3', '']) {
      const answer = customFrameShape(typed);
      expect(answer).toHaveProperty('refusal');
      expect((answer as { refusal: string }).refusal).toMatch(/^Frame shape \(W:H\): .* Nothing was saved\.$/);
    }
  });
});

describe('readGuideChoice', () => {
  it('keeps known guides in their own order and drops the rest', () => {
    expect(readGuideChoice(JSON.stringify({ shown: true, chosen: ['thirds', 'bogus', 'titleSafe'] }))).toEqual({
      shown: true,
      chosen: ['titleSafe', 'thirds'],
    });
  });

  it('falls back to off with the safe areas for nothing or garbage', () => {
    for (const stored of [null, '{', '"x"', '42'])
      expect(readGuideChoice(stored)).toEqual({ shown: false, chosen: ['actionSafe', 'titleSafe'] });
  });
});

describe('LongPress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const finger = (pointerId: number, clientX = 100, clientY = 100) => ({
    pointerId,
    pointerType: 'touch',
    clientX,
    clientY,
  });

  it('fires once a finger has been held still for the time', () => {
    const fire = vi.fn();
    const press = new LongPress(fire);
    press.down(finger(1));
    press.move(finger(1, 104, 97));
    vi.advanceTimersByTime(LONG_PRESS_MS - 1);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
    expect(press.pending).toBe(false);
  });

  it('does not fire for a tap, a finger that moves, a second finger, a pen or a mouse', () => {
    const fire = vi.fn();
    const press = new LongPress(fire);
    press.down(finger(1));
    press.up(finger(1));
    press.down(finger(2));
    press.move(finger(2, 130, 100));
    press.up(finger(2));
    press.down(finger(3));
    press.down(finger(4, 200, 100));
    expect(press.pending).toBe(false);
    press.up(finger(3));
    press.up(finger(4));
    press.down({ ...finger(5), pointerType: 'pen' });
    press.down({ ...finger(6), pointerType: 'mouse' });
    vi.advanceTimersByTime(LONG_PRESS_MS * 4);
    expect(fire).not.toHaveBeenCalled();
  });
});
