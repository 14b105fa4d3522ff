import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CameraMove } from '../../src/contract/shots.js';
import { framingProblems } from '../../src/shared/camera-move.js';
import {
  dragFraming,
  draftOf,
  keyedFraming,
  moveArrows,
  moveToSave,
  resizedFraming,
} from '../src/model/move-drawing.js';

/**
 * The frame editor's camera move without a browser (web/src/model/move-drawing.ts): whatever a drag or a key does, the
 * framing keeps the frame's shape, its smallest size and stays inside the frame, so a drawn move always passes the
 * checks the shot list applies to typed numbers.
 */

const point = fc.record({
  x: fc.double({ min: 0, max: 1, noNaN: true }),
  y: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('drawing a camera move', () => {
  it('draws a framing of the frame’s shape, inside it, from any drag', () => {
    fc.assert(
      fc.property(point, point, (anchor, to) => {
        const framing = dragFraming(anchor, to);
        expect(framing.height).toBe(framing.width);
        expect(framing.width).toBeGreaterThanOrEqual(0.1);
        expect(framing.x + framing.width).toBeLessThanOrEqual(1 + 1e-9);
        expect(framing.y + framing.height).toBeLessThanOrEqual(1 + 1e-9);
        expect(Math.min(framing.x, framing.y)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('takes the longer side of the drag, growing from the anchor towards the pointer', () => {
    expect(dragFraming({ x: 0.2, y: 0.3 }, { x: 0.6, y: 0.4 })).toEqual({ x: 0.2, y: 0.3, width: 0.4, height: 0.4 });
    expect(dragFraming({ x: 0.6, y: 0.6 }, { x: 0.4, y: 0.3 })).toEqual({ x: 0.3, y: 0.3, width: 0.3, height: 0.3 });
    // A click is the smallest framing; a drag past the edge stops at it.
    expect(dragFraming({ x: 0.5, y: 0.5 }, { x: 0.5, y: 0.5 }).width).toBe(0.1);
    expect(dragFraming({ x: 0.5, y: 0.2 }, { x: 1, y: 1 })).toEqual({ x: 0.5, y: 0.2, width: 0.5, height: 0.5 });
  });

  it('moves with the arrow keys and resizes with Shift, a hundredth a key, never leaving the frame', () => {
    const framing = { x: 0.3, y: 0.3, width: 0.3, height: 0.3 };
    expect(keyedFraming(framing, 'ArrowRight', false)).toEqual({ ...framing, x: 0.31 });
    expect(keyedFraming(framing, 'ArrowUp', false)).toEqual({ ...framing, y: 0.29 });
    expect(keyedFraming(framing, 'ArrowDown', true)).toEqual({ ...framing, width: 0.31, height: 0.31 });
    expect(keyedFraming(framing, 'ArrowLeft', true)).toEqual({ ...framing, width: 0.29, height: 0.29 });
    expect(keyedFraming(framing, 'Enter', false)).toBeNull();
    expect(keyedFraming({ x: 0.9, y: 0, width: 0.1, height: 0.1 }, 'ArrowRight', false)!.x).toBe(0.9);
    // Grown at the edge, the corner moves back in.
    expect(resizedFraming({ x: 0.5, y: 0.5, width: 0.5, height: 0.5 }, 0.1)).toEqual({
      x: 0.4,
      y: 0.4,
      width: 0.6,
      height: 0.6,
    });
  });

  it('saves a move the contract and the shot list’s checks accept, keeping a stored kind', () => {
    fc.assert(
      fc.property(point, point, point, point, (a, b, c, d) => {
        const saved = moveToSave({ start: dragFraming(a, b), end: dragFraming(c, d), easing: 'linear' }, undefined);
        expect('refused' in saved).toBe(false);
        expect(CameraMove.safeParse(saved).success).toBe(true);
        expect(framingProblems(saved as CameraMove)).toEqual([]);
      }),
    );
    const stored = {
      start: { x: 0, y: 0, width: 1, height: 1 },
      end: { x: 0, y: 0, width: 0.5, height: 0.5 },
      kind: 'push',
    };
    const draft = draftOf(stored);
    expect(draft.easing).toBe('ease-in-out');
    expect(moveToSave({ ...draft, easing: 'ease-out' }, stored)).toEqual({ ...stored, easing: 'ease-out' });
    expect(moveToSave({ ...draft, end: null }, stored)).toEqual({ refused: 'Draw the end framing.' });
    expect(draftOf({ start: 'nonsense' })).toEqual({ start: null, end: null, easing: 'ease-in-out' });
  });

  it('marks a push by its corners and a travel by its centres', () => {
    const wide = { x: 0, y: 0, width: 1, height: 1 };
    expect(moveArrows(wide, { x: 0.25, y: 0.25, width: 0.5, height: 0.5 })).toHaveLength(4);
    const [travel, ...more] = moveArrows(
      { x: 0, y: 0.1, width: 0.8, height: 0.8 },
      { x: 0.2, y: 0.1, width: 0.8, height: 0.8 },
    );
    expect(more).toEqual([]);
    [0.4, 0.5, 0.6, 0.5].forEach((value, index) => expect(travel![index]).toBeCloseTo(value, 9));
  });
});
