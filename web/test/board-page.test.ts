import { describe, expect, it } from 'vitest';
import { StoryboardNodeData } from '../../src/contract/index.js';
import { frameAtMs } from '../../src/shared/timecode.js';
import type { Intent } from '../src/model/canvas-state.js';
import type { Layout } from '../src/model/layout.js';
import { boardSounds } from '../src/model/board-sound.js';
import { readBoardPageChoice } from '../src/model/board-page.js';
import {
  clickSelection,
  clockOf,
  dropAnchor,
  focusAfterKey,
  gridColumns,
  NO_SELECTION,
  selectedInOrder,
  shotAtTime,
  snapToFrames,
  stepAnchor,
  timeline,
  trimByFrames,
} from '../src/model/board-view.js';
import { duplicateShots, moveShots, removeShots, type Shot } from '../src/model/shots.js';
import { shownColumns } from '../src/panels/shots/shot-columns.js';

/** The board page's rules without a browser (docs/ui.md, "The board page"); the page itself: test/web/board-page.test.ts. */

const authors = () => ({});
const layoutOf = (frames: Shot[], extra: Record<string, unknown> = {}): Layout =>
  ({
    revision: 3,
    nodes: [{ id: 'board', type: 'storyboardNode', position: { x: 0, y: 0 }, data: { frames, ...extra } }],
    edges: [],
  }) as unknown as Layout;
const shots = (...ids: string[]): Shot[] => ids.map((id, index) => ({ id, imageUrl: null, number: String(index + 1) }));
function written(intent: Intent, layout: Layout): Shot[] {
  const operations = intent.build(layout);
  if (!Array.isArray(operations)) throw new Error(operations.notApplicable);
  expect(operations).toHaveLength(1);
  return StoryboardNodeData.parse((operations[0] as { set: { data: unknown } }).set.data).frames as Shot[];
}
const order = (frames: Shot[]) => frames.map((frame) => `${frame.id}:${frame.number}`);

describe('the grid', () => {
  it('fits as many frames a row as their width allows, at least one', () => {
    expect(gridColumns(1408, 280, 16)).toBe(4);
    expect(gridColumns(1408, 160, 16)).toBe(8);
    expect(gridColumns(100, 280, 16)).toBe(1);
  });

  it('moves the focus with the arrows, row by row, and stays put at an edge', () => {
    expect(focusAfterKey('ArrowRight', 3, 10, 4)).toBe(4);
    expect(focusAfterKey('ArrowDown', 3, 10, 4)).toBe(7);
    expect(focusAfterKey('ArrowDown', 7, 10, 4)).toBe(7);
    expect(focusAfterKey('ArrowUp', 2, 10, 4)).toBe(2);
    expect(focusAfterKey('ArrowLeft', 0, 10, 4)).toBe(0);
    expect(focusAfterKey('End', 0, 10, 4)).toBe(9);
    expect(focusAfterKey('Enter', 0, 10, 4)).toBeNull();
  });

  it('selects as file managers do: a click, a Ctrl click to add or remove, a Shift click for a run', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const one = clickSelection(NO_SELECTION, ids, 'b', { shift: false, toggle: false });
    expect(one).toEqual({ ids: ['b'], anchor: 'b' });
    const run = clickSelection(one, ids, 'd', { shift: true, toggle: false });
    expect(run.ids).toEqual(['b', 'c', 'd']);
    const less = clickSelection(run, ids, 'c', { shift: false, toggle: true });
    expect(less.ids).toEqual(['b', 'd']);
    expect(selectedInOrder(ids, { ids: ['d', 'b'], anchor: 'd' }, 'a')).toEqual(['b', 'd']);
    expect(selectedInOrder(ids, NO_SELECTION, 'a')).toEqual(['a']);
  });

  it('lands a dragged block before or after the shot it is dropped on, passing over its own shots', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    expect(dropAnchor(ids, ['b', 'c'], 'd', true)).toBe('e');
    expect(dropAnchor(ids, ['b', 'c'], 'd', false)).toBe('d');
    expect(dropAnchor(ids, ['b', 'c'], 'e', true)).toBeNull();
    expect(dropAnchor(ids, ['b', 'c'], 'b', true)).toBe('d');
  });

  it('moves a block one place with the keyboard, and not past either end', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    expect(stepAnchor(ids, ['c'], -1)).toBe('b');
    expect(stepAnchor(ids, ['c'], 1)).toBe('e');
    expect(stepAnchor(ids, ['d'], 1)).toBeNull();
    expect(stepAnchor(ids, ['a', 'b'], -1)).toBeUndefined();
    expect(stepAnchor(ids, ['d', 'e'], 1)).toBeUndefined();
  });

  it('reads the fields and frame size kept in the browser defensively', () => {
    expect(readBoardPageChoice(null).fields).toEqual(['caption', 'action', 'dialogue', 'durationMs']);
    expect(readBoardPageChoice('{"fields":["camera","nope","caption"],"frameWidth":9999}')).toEqual({
      fields: ['caption', 'camera'],
      frameWidth: 520,
    });
    expect(readBoardPageChoice('not json').frameWidth).toBe(280);
  });

  it("starts the List with the columns that fit a 1,280 px screen, the canvas's shot list with every one", () => {
    expect(shownColumns('page', null)).not.toContain('lensMm');
    expect(shownColumns('panel', null)).toContain('lensMm');
    expect(shownColumns('page', '["notes","review","bogus"]')).toEqual(['review', 'notes']);
  });
});

describe('changes of several shots, each one revision with the numbers following', () => {
  const board = layoutOf(shots('a', 'b', 'c', 'd', 'e'));

  it('moves a block of shots in board order before a shot, or to the end', () => {
    expect(order(written(moveShots('board', ['d', 'b'], 'a', authors), board))).toEqual([
      'b:1',
      'd:2',
      'a:3',
      'c:4',
      'e:5',
    ]);
    expect(order(written(moveShots('board', ['a'], null, authors), board)).at(-1)).toBe('a:5');
  });

  it('gives moved shots numbers where they land under locked numbers', () => {
    const locked = layoutOf(shots('a', 'b', 'c'), { numbersLocked: true });
    expect(order(written(moveShots('board', ['a'], 'c', authors), locked))).toEqual(['b:2', 'a:2A', 'c:3']);
  });

  it('duplicates shots after the last of them with new ids and every field but the number', () => {
    const withWords = layoutOf([
      { id: 'a', imageUrl: '/assets/asset_aaaaaaaaaaaaaaaa', number: '1', caption: 'Bay' },
      { id: 'b', imageUrl: null, number: '2' },
    ]);
    const frames = written(duplicateShots('board', ['a'], authors), withWords);
    expect(frames.map((frame) => frame.number)).toEqual(['1', '2', '3']);
    expect(frames[1]).toMatchObject({ caption: 'Bay', imageUrl: '/assets/asset_aaaaaaaaaaaaaaaa', number: '2' });
    expect(frames[1]!.id).not.toBe('a');
  });

  it('removes several shots at once, and says so when they are all gone already', () => {
    expect(order(written(removeShots('board', ['b', 'd'], authors), board))).toEqual(['a:1', 'c:2', 'e:3']);
    expect(removeShots('board', ['x'], authors).build(board)).toHaveProperty('notApplicable');
  });
});

describe('the animatic', () => {
  it('snaps a duration to whole frames at 24 fps, at least one', () => {
    expect(snapToFrames(3000)).toBe(3000);
    expect(snapToFrames(3833.3)).toBe(3833);
    expect(frameAtMs(snapToFrames(3833.3), '24')).toBe(92);
    expect(snapToFrames(5)).toBe(42);
  });

  it('trims by frames and by seconds from a snapped duration', () => {
    expect(frameAtMs(trimByFrames(3000, 3), '24')).toBe(75);
    expect(trimByFrames(3000, -24)).toBe(2000);
    expect(trimByFrames(50, -5)).toBe(42);
  });

  it('lays the shots end to end and finds the shot under the playhead', () => {
    const { starts, total } = timeline([3000, 1500, 2000]);
    expect(starts).toEqual([0, 3000, 4500]);
    expect(total).toBe(6500);
    expect(shotAtTime(starts, 2999)).toBe(0);
    expect(shotAtTime(starts, 3000)).toBe(1);
    expect(shotAtTime(starts, 9000)).toBe(2);
    expect(clockOf(65_432)).toBe('1:05.4');
  });

  it('finds the voice-over of a shot and the music bed as the export does, with a sound from a run when no file', () => {
    const layout = {
      revision: 1,
      nodes: [
        { id: 'board', type: 'storyboardNode', position: { x: 0, y: 0 }, data: { frames: [] } },
        { id: 'v', type: 'audioNode', position: { x: 0, y: 0 }, data: { displayName: 'Voice', audioUrl: null } },
        {
          id: 'm',
          type: 'audioNode',
          position: { x: 0, y: 0 },
          data: { displayName: 'Sea', audioUrl: '/assets/asset_mmmmmmmmmmmmmmmm', durationMs: 30_000 },
        },
      ],
      edges: [
        { id: 'e1', source: 'v', target: 'board', data: { shotId: 's2' } },
        { id: 'e2', source: 'm', target: 'board' },
      ],
    } as unknown as Layout;
    const states = {
      v: { node_id: 'v', status: 'succeeded', outputs: [{ kind: 'audio', url: '/assets/asset_vvvvvvvvvvvvvvvv' }] },
    } as never;
    const { music, voices } = boardSounds(layout, states, 'board');
    expect(music).toMatchObject({ nodeId: 'm', name: 'Sea', durationMs: 30_000 });
    expect(voices.get('s2')).toMatchObject({ name: 'Voice', url: '/assets/asset_vvvvvvvvvvvvvvvv' });
  });
});
