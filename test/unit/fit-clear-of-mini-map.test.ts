import { describe, expect, it } from 'vitest';
import { miniMapStrips, paddingClearOf } from '../../web/src/canvas/fit-padding.js';

/**
 * Fit keeps cards clear of the mini-map (web/src/canvas/fit-padding.ts): the padding React Flow fits a layout with keeps the
 * mini-map's width free on the right or its height at the bottom, whichever leaves the larger zoom, and neither where
 * it would take half the pane. A laptop's pane (923×860) and React Flow's mini-map corner (215×165).
 */

const PANE = { width: 923, height: 860 };
const CORNER = { width: 215, height: 165 };
const px = (value: string) => Number(value.replace('px', ''));

describe('Fit, clear of the mini-map', () => {
  it('a wide layout keeps the mini-map’s height free at the bottom', () => {
    const padding = paddingClearOf({ x: 0, y: 0, width: 2000, height: 500 }, PANE, CORNER);
    expect(px(padding.bottom) - px(padding.top)).toBe(CORNER.height);
    expect(padding.right).toBe(padding.left);
  });

  it('a tall layout keeps its width free on the right', () => {
    const padding = paddingClearOf({ x: 0, y: 0, width: 500, height: 2000 }, PANE, CORNER);
    expect(px(padding.right) - px(padding.left)).toBe(CORNER.width);
    expect(padding.bottom).toBe(padding.top);
  });

  it('keeps nothing free where there is no mini-map, or where it would take half the pane', () => {
    for (const [pane, miniMap] of [
      [PANE, null],
      [{ width: 400, height: 300 }, CORNER],
    ] as const) {
      const padding = paddingClearOf({ x: 0, y: 0, width: 500, height: 500 }, pane, miniMap);
      expect(padding.right).toBe(padding.left);
      expect(padding.bottom).toBe(padding.top);
    }
    // A narrow, tall pane may still keep the bottom strip, never the right one.
    expect(miniMapStrips({ width: 400, height: 900 }, CORNER)).toEqual([{ right: 0, bottom: CORNER.height }]);
  });
});
