import { describe, expect, it } from 'vitest';
import { StoryboardNodeData, type CanvasNode } from '../../src/contract/index.js';
import type { Layout } from '../src/model/layout.js';
import { addShot, editShot, moveShot, renumber, setNumbersLocked, type Shot } from '../src/model/shots.js';
import type { Intent } from '../src/model/canvas-state.js';

const authors = () => ({});
const board = (frames: Shot[], extra: Record<string, unknown> = {}): Layout =>
  ({
    revision: 4,
    nodes: [{ id: 'board', type: 'storyboardNode', position: { x: 0, y: 0 }, data: { frames, ...extra } }],
    edges: [],
  }) as unknown as Layout;
const shot = (id: string, number?: string, extra: Record<string, unknown> = {}): Shot => ({
  id,
  imageUrl: null,
  ...(number ? { number } : {}),
  ...extra,
});

/** The board's data the intent writes (one update of the storyboard node), checked against the contract. */
function written(intent: Intent, layout: Layout): { frames: Shot[]; numbersLocked?: boolean } {
  const operations = intent.build(layout);
  if (!Array.isArray(operations)) throw new Error(operations.notApplicable);
  expect(operations).toHaveLength(1);
  const data = (operations[0] as { set: { data: unknown } }).set.data;
  return StoryboardNodeData.parse(data) as { frames: Shot[]; numbersLocked?: boolean };
}
const order = (data: { frames: Shot[] }) => data.frames.map((frame) => `${frame.id}:${frame.number}`);

describe('shots on a board', () => {
  const three = board([shot('a', '1'), shot('b', '2'), shot('c', '3')]);

  it('renumbers in the same write when a shot moves, while numbers follow the order', () => {
    expect(order(written(moveShot('board', 'c', 0, authors), three))).toEqual(['c:1', 'a:2', 'b:3']);
  });

  it('keeps locked numbers and numbers a moved or added shot 2A', () => {
    const locked = board([shot('a', '1'), shot('b', '2'), shot('c', '3')], { numbersLocked: true });
    expect(order(written(moveShot('board', 'a', 1, authors), locked))).toEqual(['b:2', 'a:2A', 'c:3']);
    const added = written(addShot('board', authors, 1), locked);
    expect(added.frames.map((frame) => frame.number)).toEqual(['1', '2', '2A', '3']);
    expect(added.frames[2]).toMatchObject({ status: 'draft', imageUrl: null });
  });

  it('renumbers a locked board 1, 2, 3 and keeps it locked; unlocking numbers it by order', () => {
    const locked = board([shot('a', '1'), shot('x', '1A'), shot('b', '2')], { numbersLocked: true });
    const renumbered = written(renumber('board', authors), locked);
    expect(order(renumbered)).toEqual(['a:1', 'x:2', 'b:3']);
    expect(renumbered.numbersLocked).toBe(true);
    expect(written(setNumbersLocked('board', false, authors), locked).numbersLocked).toBe(false);
  });

  it("edits one shot's fields from the board as it is now, keeping another shot's change made meanwhile", () => {
    const intent = editShot('board', 'b', { shotSize: 'CU', lensMm: 50, dialogue: '' }, authors);
    const meanwhile = board([shot('a', '1', { scene: '4' }), shot('b', '2', { dialogue: 'Hello' }), shot('c', '3')]);
    const data = written(intent, meanwhile);
    expect(data.frames[0]).toMatchObject({ scene: '4' });
    expect(data.frames[1]).toEqual({ id: 'b', imageUrl: null, number: '2', shotSize: 'CU', lensMm: 50 });
  });

  it('says so when the shot or the board is gone', () => {
    expect(editShot('board', 'zz', { scene: '1' }, authors).build(three)).toHaveProperty('notApplicable');
    const empty = { revision: 1, nodes: [] as CanvasNode[], edges: [] } as unknown as Layout;
    expect(moveShot('board', 'a', 1, authors).build(empty)).toHaveProperty('notApplicable');
  });
});
