import { describe, expect, it } from 'vitest';
import { EDGE_MARGIN, edgePointer, inView } from '../../web/src/canvas/out-of-view.js';

/**
 * Where the pointer to an agent's card out of view goes (web/src/canvas/out-of-view.ts): nowhere while the card is in
 * view; on the pane's edge toward the card when it is beyond it; beside the mini-map when the card is under it. A
 * laptop's pane (923×860) with React Flow's mini-map in its bottom right corner (200×150, 15 px from the edges).
 */

const PANE = { width: 923, height: 860 };
const MINI_MAP = { x: 708, y: 695, width: 200, height: 150 };
const card = (x: number, y: number) => ({ x, y, width: 240, height: 120 });

describe('an agent’s card out of view', () => {
  it('a card in the pane is in view, and gets no pointer', () => {
    expect(inView(card(300, 300), PANE, MINI_MAP)).toBe(true);
    expect(edgePointer(card(300, 300), PANE, MINI_MAP)).toBeNull();
  });

  it('a card beyond the right edge is pointed at from the right edge, at its height, pointing right', () => {
    const at = edgePointer(card(2000, 300), PANE, MINI_MAP)!;
    expect(at.x).toBe(PANE.width - EDGE_MARGIN);
    expect(at.y).toBe(360);
    expect(at.angle).toBe(0);
  });

  it('a card above and to the left is pointed at from the top left corner, pointing up and left', () => {
    const at = edgePointer(card(-3000, -3000), PANE, MINI_MAP)!;
    expect([at.x, at.y]).toEqual([EDGE_MARGIN, EDGE_MARGIN]);
    expect(at.angle).toBeGreaterThan(-180);
    expect(at.angle).toBeLessThan(-90);
  });

  it('a card under the mini-map is out of view, and pointed at from beside the mini-map, not from under it', () => {
    const hidden = card(690, 700);
    expect(inView(hidden, PANE, MINI_MAP)).toBe(false);
    const at = edgePointer(hidden, PANE, MINI_MAP)!;
    const underMiniMap =
      at.x >= MINI_MAP.x &&
      at.x <= MINI_MAP.x + MINI_MAP.width &&
      at.y >= MINI_MAP.y &&
      at.y <= MINI_MAP.y + MINI_MAP.height;
    expect(underMiniMap).toBe(false);
  });

  it('a card beyond the bottom right corner is pointed at from above the mini-map or left of it', () => {
    const right = edgePointer(card(3000, 900), PANE, MINI_MAP)!;
    expect(right.y).toBe(MINI_MAP.y - EDGE_MARGIN);
    const below = edgePointer(card(750, 3000), PANE, MINI_MAP)!;
    expect(below.x).toBe(MINI_MAP.x - EDGE_MARGIN);
  });

  it('without a mini-map, the bottom right corner is an edge like the others', () => {
    expect(inView(card(690, 700), PANE, null)).toBe(true);
    const at = edgePointer(card(3000, 3000), PANE, null)!;
    expect([at.x, at.y]).toEqual([PANE.width - EDGE_MARGIN, PANE.height - EDGE_MARGIN]);
  });
});
