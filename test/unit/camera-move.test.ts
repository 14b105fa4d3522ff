import { describe, expect, it } from 'vitest';
import { StoryboardFrame, StoryboardNodeData } from '../../src/contract/index.js';
import { CameraMove } from '../../src/contract/shots.js';
import {
  EASING_CURVES,
  easedProgress,
  easingExpression,
  framingAt,
  framingProblems,
  moveKindOf,
  placedFraming,
} from '../../src/shared/camera-move.js';

/**
 * Camera moves (src/shared/camera-move.ts): the framing at a moment of the shot, the easings' shapes, the one
 * polynomial behind both the JavaScript curve and the animatic's ffmpeg expression, the contract refusing a
 * framing smaller than a tenth of the picture naming the field, and a framing not of the frame's shape or leaving the
 * picture shown placed (and named before a person saves it).
 */

const push = CameraMove.parse({
  start: { x: 0, y: 0, width: 1, height: 1 },
  end: { x: 0.3, y: 0.2, width: 0.4, height: 0.4 },
  easing: 'linear',
});

describe('camera move framing', () => {
  it('is the start framing at 0, the end framing at 1 and halfway between at 0.5 when linear', () => {
    expect(framingAt(push, 0)).toEqual(push.start);
    expect(framingAt(push, 1)).toEqual(push.end);
    const middle = framingAt(push, 0.5);
    expect(middle.x).toBeCloseTo(0.15, 10);
    expect(middle.y).toBeCloseTo(0.1, 10);
    expect(middle.width).toBeCloseTo(0.7, 10);
  });

  it('holds the ends outside 0..1', () => {
    expect(framingAt(push, -0.5)).toEqual(push.start);
    expect(framingAt(push, 3)).toEqual(push.end);
  });

  it('eases in slowly, out quickly, and in-out symmetrically', () => {
    expect(easedProgress('ease-in', 0.25)).toBeLessThan(0.25);
    expect(easedProgress('ease-out', 0.25)).toBeGreaterThan(0.25);
    expect(easedProgress('ease-in-out', 0.5)).toBeCloseTo(0.5, 10);
    expect(easedProgress('ease-in-out', 0.1)).toBeLessThan(0.1);
    expect(easedProgress('ease-in-out', 0.9)).toBeGreaterThan(0.9);
    for (const easing of Object.keys(EASING_CURVES) as Array<keyof typeof EASING_CURVES>) {
      expect(easedProgress(easing, 0), easing).toBe(0);
      expect(easedProgress(easing, 1), easing).toBeCloseTo(1, 12);
      // Monotonic: a move never turns back.
      let last = 0;
      for (let step = 1; step <= 100; step += 1) {
        const value = easedProgress(easing, step / 100);
        expect(value, `${easing} at ${step / 100}`).toBeGreaterThanOrEqual(last);
        last = value;
      }
    }
  });

  it('writes each easing for ffmpeg as the same polynomial', () => {
    for (const easing of Object.keys(EASING_CURVES) as Array<keyof typeof EASING_CURVES>) {
      for (const t of [0, 0.2, 0.5, 0.77, 1]) {
        const expression = easingExpression(easing, String(t)).replace(/pow\(([^,]+),(\d)\)/g, '(($1)**$2)');
        expect(Number(new Function(`return ${expression}`)()), `${easing} at ${t}`).toBeCloseTo(
          easedProgress(easing, t),
          12,
        );
      }
    }
  });

  it('names a derived move from its framings', () => {
    expect(moveKindOf(push)).toBe('push');
    expect(moveKindOf({ ...push, start: push.end, end: push.start })).toBe('pull');
    const pan = {
      ...push,
      start: { x: 0, y: 0, width: 0.5, height: 0.5 },
      end: { x: 0.5, y: 0, width: 0.5, height: 0.5 },
    };
    expect(moveKindOf(pan)).toBe('pan');
    expect(moveKindOf({ ...pan, end: { x: 0, y: 0.5, width: 0.5, height: 0.5 } })).toBe('tilt');
    expect(moveKindOf({ ...pan, kind: 'tilt' })).toBe('tilt');
  });
});

describe('camera move contract', () => {
  const frameWith = (end: Record<string, number>) => ({
    id: 'f1',
    imageUrl: null,
    move: { start: { x: 0, y: 0, width: 1, height: 1 }, end },
  });

  it('eases a move without an easing in and out, and reads its kind from its framings', () => {
    const frame = StoryboardFrame.parse(frameWith({ x: 0.25, y: 0.25, width: 0.5, height: 0.5 }));
    expect(frame.move!.easing).toBeUndefined();
    expect(framingAt(frame.move!, 0.25).width).toBeCloseTo(1 - 0.5 * easedProgress('ease-in-out', 0.25), 12);
    expect(moveKindOf(frame.move!)).toBe('push');
  });

  it('refuses a framing smaller than a tenth, naming the field', () => {
    const result = StoryboardFrame.safeParse(frameWith({ x: 0, y: 0, width: 0.05, height: 0.05 }));
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toContain('move.end.width');
  });

  it('shows a framing in the frame’s shape and inside the picture, and names what is wrong with one as typed', () => {
    const typed = { start: { x: 0, y: 0, width: 1, height: 1 }, end: { x: 0.7, y: 0.1, width: 0.5, height: 0.3 } };
    expect(placedFraming(typed.end)).toEqual({ x: 0.5, y: 0.1, width: 0.5, height: 0.5 });
    expect(framingAt({ ...typed, easing: 'linear' }, 1)).toEqual({ x: 0.5, y: 0.1, width: 0.5, height: 0.5 });
    expect(framingProblems(typed).map((problem) => problem.path)).toEqual(['end.height', 'end.width']);
    expect(framingProblems(push)).toEqual([]);
  });

  it('names the shot in the board: frames.2.move.end.width', () => {
    const still = { id: 'f', imageUrl: null };
    const result = StoryboardNodeData.safeParse({
      frames: [still, still, frameWith({ x: 0, y: 0, width: 0.05, height: 0.05 })],
    });
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toContain('frames.2.move.end.width');
  });

  it('refuses an unknown easing', () => {
    const result = StoryboardFrame.safeParse({
      ...frameWith({ x: 0.25, y: 0.25, width: 0.5, height: 0.5 }),
      move: { start: { x: 0, y: 0, width: 1, height: 1 }, end: { x: 0, y: 0, width: 1, height: 1 }, easing: 'bounce' },
    });
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toContain('move.easing');
  });
});
