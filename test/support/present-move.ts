import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import type { CameraMove } from '../../src/contract/shots.js';
import { framingAt } from '../../src/shared/camera-move.js';

/**
 * Present plays a shot's camera move as a CSS animation of its picture. These read that animation paused at a fraction
 * of the shot and hold it to the framing function the animatic and the timelines use too.
 */

/** Resolves once the picture has loaded (its animation runs on the loaded image). */
export async function pictureLoaded(picture: Locator): Promise<void> {
  await picture.evaluate(
    (element) =>
      new Promise((done) => {
        const image = element as unknown as { complete: boolean; onload: unknown };
        if (image.complete) done(null);
        else image.onload = () => done(null);
      }),
  );
}

/** The picture's transform matrix and size with its move's animation paused at `fraction` of the shot. */
export function transformAt(picture: Locator, fraction: number) {
  return picture.evaluate((element, at) => {
    type Animation = { pause(): void; currentTime: number; effect: { getTiming(): { duration: number } } };
    const image = element as unknown as { getAnimations(): Animation[]; offsetWidth: number; offsetHeight: number };
    const [animation] = image.getAnimations();
    animation!.pause();
    animation!.currentTime = at * animation!.effect.getTiming().duration;
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): { transform: string } }).getComputedStyle(
      element,
    );
    const numbers = /matrix\(([^)]+)\)/.exec(style.transform)![1]!.split(',').map(Number);
    return { matrix: numbers, width: image.offsetWidth, height: image.offsetHeight };
  }, fraction);
}

/** The picture at `fraction` of the shot shows `move`'s framing then: scaled to it, its top-left corner at the frame's. */
export async function expectPresentFraming(picture: Locator, move: CameraMove, fraction: number): Promise<void> {
  const shown = await transformAt(picture, fraction);
  const expected = framingAt(move, fraction);
  const scale = 1 / expected.width;
  const [a, , , d, e, f] = shown.matrix as [number, number, number, number, number, number];
  expect(a).toBeCloseTo(scale, 3);
  expect(d).toBeCloseTo(scale, 3);
  expect(Math.abs(e + expected.x * shown.width * scale)).toBeLessThan(1);
  expect(Math.abs(f + expected.y * shown.height * scale)).toBeLessThan(1);
}
