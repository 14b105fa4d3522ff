import { describe, expect, it } from 'vitest';
import { StoryboardNodeData, type CanvasNode, type NodeRuntimeState } from '../../src/contract/index.js';
import type { Layout } from '../src/model/layout.js';
import {
  addShot,
  assetPath,
  continueFromPrevious,
  EARLIER_PICTURES_MAX,
  editShot,
  fillBoard,
  fillOrder,
  moveShot,
  pictureRefusal,
  renumber,
  setNumbersLocked,
  setShotPicture,
  withPicture,
  type Shot,
} from '../src/model/shots.js';
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

  it('continues a shot from the one before as the board is now: its cast, location and lens exactly, nothing else', () => {
    const meanwhile = board([
      shot('a', '1', { cast: ['Mara'], location: 'PIER', caption: 'Wide' }),
      shot('b', '2', { cast: ['Tom'], lensMm: 85, shotSize: 'CU', caption: 'Close' }),
    ]);
    const data = written(continueFromPrevious('board', 'b', authors), meanwhile);
    expect(data.frames[1]).toEqual({
      id: 'b',
      imageUrl: null,
      number: '2',
      cast: ['Mara'],
      location: 'PIER',
      shotSize: 'CU',
      caption: 'Close',
    });
    expect(data.frames[0]).toEqual(shot('a', '1', { cast: ['Mara'], location: 'PIER', caption: 'Wide' }));
    expect(continueFromPrevious('board', 'a', authors).build(meanwhile)).toHaveProperty('notApplicable');
  });

  it('says so when the shot or the board is gone', () => {
    expect(editShot('board', 'zz', { scene: '1' }, authors).build(three)).toHaveProperty('notApplicable');
    const empty = { revision: 1, nodes: [] as CanvasNode[], edges: [] } as unknown as Layout;
    expect(moveShot('board', 'a', 1, authors).build(empty)).toHaveProperty('notApplicable');
  });
});

describe('pictures on shots', () => {
  const pic = (letter: string) => `/assets/asset_${letter.repeat(16)}`;
  const states = {
    gen: { status: 'succeeded', outputs: [{ kind: 'image', url: pic('g') }] },
  } as unknown as Record<string, NodeRuntimeState>;

  it('puts the replaced picture first among the earlier ones, newest first, at most 20, never twice', () => {
    const first = withPicture(shot('a', '1'), pic('a'));
    expect(first).toEqual({ id: 'a', number: '1', imageUrl: pic('a') });
    const second = withPicture(first, pic('b'));
    expect(second.earlierPictures).toEqual([pic('a')]);
    const third = withPicture(second, pic('c'));
    expect(third).toMatchObject({ imageUrl: pic('c'), earlierPictures: [pic('b'), pic('a')] });
    // Picking an earlier picture back moves it: the current one goes first, the picked one leaves the list.
    const back = withPicture(third, pic('a'));
    expect(back).toMatchObject({ imageUrl: pic('a'), earlierPictures: [pic('c'), pic('b')] });
    let many: Shot = shot('m');
    for (let index = 0; index < 30; index += 1)
      many = withPicture(many, `/assets/asset_${String(index).padStart(16, 'x')}`);
    expect(many.earlierPictures).toHaveLength(EARLIER_PICTURES_MAX);
    expect((many.earlierPictures as string[])[0]).toBe(`/assets/asset_${'28'.padStart(16, 'x')}`);
  });

  it('keeps asset paths, never the signatures a read gave them (they expire)', () => {
    const signed = `${pic('s')}?exp=1900000000&sig=abc_DEF-123`;
    expect(assetPath(signed)).toBe(pic('s'));
    expect(assetPath('https://example.com/x.png')).toBe('https://example.com/x.png');
    const next = withPicture({ id: 'a', imageUrl: signed }, `${pic('t')}?exp=1&sig=x`);
    expect(next).toEqual({ id: 'a', imageUrl: pic('t'), earlierPictures: [pic('s')] });
  });

  it("sets one shot's picture in one write, keeping a generated picture it replaces as an earlier one", () => {
    const layout = board([shot('a', '1', { sourceNodeId: 'gen' }), shot('b', '2')]);
    const data = written(
      setShotPicture('board', 'a', pic('u'), 'Picture from u.png', authors, () => states),
      layout,
    );
    expect(data.frames[0]).toMatchObject({ imageUrl: pic('u'), earlierPictures: [pic('g')], sourceNodeId: 'gen' });
    expect(data.frames[1]).toEqual({ id: 'b', number: '2', imageUrl: null });
    const gone = setShotPicture('board', 'x', pic('u'), 'Picture from u.png', authors).build(layout);
    expect(gone).toHaveProperty('notApplicable');
  });

  it("fills the empty shots in board order (a shot with a picture or a source card's is not empty), then adds shots", () => {
    const shots = [
      shot('a', '1', { imageUrl: pic('a') }),
      shot('b', '2'),
      shot('c', '3', { sourceNodeId: 'gen' }),
      shot('d', '4'),
    ];
    const empty = (each: Shot) => each.imageUrl === null && each.sourceNodeId === undefined;
    expect(fillOrder(shots, 3, empty)).toEqual(['b', 'd', null]);
    expect(fillOrder(shots, 1, empty)).toEqual(['b']);
    const data = written(
      fillBoard('board', [pic('1'), pic('2'), pic('3'), pic('4')], authors, () => states),
      board(shots),
    );
    expect(data.frames.map((frame) => [frame.number, frame.imageUrl])).toEqual([
      ['1', pic('a')],
      ['2', pic('1')],
      ['3', null],
      ['4', pic('2')],
      ['5', pic('3')],
      ['6', pic('4')],
    ]);
    expect(data.frames[4]).toMatchObject({ status: 'draft' });
  });

  it('refuses a file that is not a picture, naming it and what it is', () => {
    expect(pictureRefusal({ name: 'frame.png', type: 'image/png' })).toBeNull();
    expect(pictureRefusal({ name: 'frame.JPG', type: '' })).toBeNull();
    expect(pictureRefusal({ name: 'take 3.mp4', type: 'video/mp4' })).toBe(
      'take 3.mp4 is a film (video/mp4), not a picture: a shot takes a PNG, JPEG, WebP, GIF or AVIF picture.',
    );
    expect(pictureRefusal({ name: 'treatment.pdf', type: 'application/pdf' })).toContain('treatment.pdf is a PDF');
    expect(pictureRefusal({ name: 'logo.svg', type: 'image/svg+xml' })).toContain(
      'logo.svg is a file of type image/svg+xml, not a picture',
    );
    expect(pictureRefusal({ name: 'notes', type: '' })).toContain('notes is a file of unknown type');
  });
});
