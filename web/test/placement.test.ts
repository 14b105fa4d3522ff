import { describe, expect, it } from 'vitest';
import type { CanvasNode } from '../../src/contract/index.js';
import { busiestRegion } from '../src/canvas/fit.js';
import { drawnBoxes, freeSpotNear, measuredSizes, placeBlock, type Box } from '../src/model/placement.js';

const node = (id: string, x: number, y: number, extra: Partial<CanvasNode> = {}): CanvasNode =>
  ({ id, type: 'textAnnotationNode', position: { x, y }, data: {}, ...extra }) as CanvasNode;

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('where new cards go', () => {
  it('puts a card at the point asked for when nothing is there', () => {
    expect(freeSpotNear([], { x: 500, y: 300 }, { width: 300, height: 220 })).toEqual({ x: 350, y: 190 });
  });

  it('puts twenty cards one after another where none covers another', () => {
    const boxes: Box[] = [];
    for (let count = 0; count < 20; count += 1) {
      const spot = freeSpotNear(boxes, { x: 0, y: 0 }, { width: 300, height: 220 });
      const box = { ...spot, width: 300, height: 220 };
      expect(boxes.filter((other) => overlap(box, other))).toEqual([]);
      boxes.push(box);
    }
  });

  it("counts a group's children where they are drawn, not at their position relative to the group", () => {
    const boxes = drawnBoxes([
      node('group', 1000, 1000, { width: 600, height: 400 }),
      node('child', 20, 40, { parentId: 'group' }),
    ]);
    expect(boxes[1]).toMatchObject({ x: 1020, y: 1040 });
  });

  it('counts a card the page drew larger than its stored size at the size it shows', () => {
    const boxes = drawnBoxes(
      [node('grown', 0, 0)],
      measuredSizes([{ id: 'grown', measured: { width: 280, height: 900 } }]),
    );
    expect(boxes[0]).toMatchObject({ width: 280, height: 900 });
    const spot = freeSpotNear(boxes, { x: 140, y: 500 }, { width: 280, height: 200 });
    expect(overlap({ ...spot, width: 280, height: 200 }, boxes[0]!)).toBe(false);
  });

  it('moves pasted copies together to a free spot, keeping their places relative to each other', () => {
    const originals = [node('a', 0, 0), node('b', 400, 0)];
    const copies = [node('a2', 40, 40), node('b2', 440, 40)];
    const placed = placeBlock(copies, drawnBoxes(originals));
    expect(placed[1]!.position.x - placed[0]!.position.x).toBe(400);
    expect(placed[1]!.position.y - placed[0]!.position.y).toBe(0);
    for (const copy of drawnBoxes(placed))
      for (const box of drawnBoxes(originals)) expect(overlap(copy, box)).toBe(false);
  });

  it('leaves a pasted card inside an existing group where it is', () => {
    const child = node('c2', 60, 60, { parentId: 'group' });
    expect(placeBlock([child], [])).toEqual([child]);
  });
});

describe('what Fit shows of a large canvas', () => {
  it('picks the part with the most cards, not the far corner a single card stretches the canvas to', () => {
    const cluster = Array.from({ length: 6 }, (_, index) => ({
      x: (index % 3) * 320,
      y: Math.floor(index / 3) * 240,
      width: 280,
      height: 200,
    }));
    const stray = { x: 20_000, y: 15_000, width: 280, height: 200 };
    const region = busiestRegion([...cluster, stray], { width: 2000, height: 1200 });
    expect(region).toEqual({ x: 0, y: 0, width: 920, height: 440 });
  });
});
