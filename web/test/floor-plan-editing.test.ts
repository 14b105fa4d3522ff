import { describe, expect, it } from 'vitest';
import { CanvasNode, FloorPlanNodeData, type ConformReport } from '../../src/contract/index.js';
import { conformSummary } from '../src/model/conform-report.js';
import {
  addCharacter,
  addDoor,
  addProp,
  addWall,
  moveItem,
  moveWallPoint,
  nearestOnWall,
  removeItem,
  renameItem,
  wallPoints,
} from '../src/model/floor-plan.js';
import type { Layout } from '../src/model/layout.js';

/**
 * Editing a floor plan on the page without a browser (web/src/model/floor-plan.ts): each edit is one update of the
 * plan node that the contract accepts, keeps what it does not touch, and says when its item is gone; and a conform's
 * report in words (web/src/model/conform-report.ts).
 */

const authors = () => ({});
const plan = (data: Record<string, unknown>): Layout => ({
  revision: 7,
  nodes: [CanvasNode.parse({ id: 'plan', type: 'floorPlanNode', position: { x: 0, y: 0 }, data })],
  edges: [],
});
const CAMERA = { id: 'cam-A', name: 'A', x: 0, y: 0, directionDeg: 0, sensor: 'super35', lensMm: 50, shot: null };
const WALL = {
  id: 'w1',
  points: [
    { x: 0, y: 0 },
    { x: 4, y: 0 },
    { x: 4, y: 3 },
  ],
};

/** The plan's data after an intent: exactly one update of the plan node, valid by the contract. */
function after(layout: Layout, intent: { build(layout: Layout): unknown }): FloorPlanNodeData {
  const operations = intent.build(layout);
  expect(operations).toHaveLength(1);
  const [operation] = operations as Array<{ op: string; node_id: string; set: { data: unknown } }>;
  expect(operation).toMatchObject({ op: 'update_node', node_id: 'plan' });
  return FloorPlanNodeData.parse(operation!.set.data);
}

describe('editing a floor plan', () => {
  it('adds a wall through its points, dropping the point a double-click repeats, to the centimetre', () => {
    expect(
      wallPoints([
        { x: 0, y: 0 },
        { x: 2, y: 0 },
        { x: 2.004, y: 0 },
      ]),
    ).toEqual([
      { x: 0, y: 0 },
      { x: 2, y: 0 },
    ]);
    const data = after(
      plan({ walls: [], cameras: [CAMERA], displayName: 'Lighthouse' }),
      addWall(
        'plan',
        'w2',
        [
          { x: 0.123, y: 0 },
          { x: 3, y: 1 },
          { x: 3, y: 1 },
        ],
        authors,
      ),
    );
    expect(data.walls).toEqual([
      {
        id: 'w2',
        points: [
          { x: 0.12, y: 0 },
          { x: 3, y: 1 },
        ],
      },
    ]);
    expect(data.cameras).toEqual([CAMERA]);
    expect(data.displayName).toBe('Lighthouse');
  });

  it('moves a wall point, and puts a door on the nearest wall along its side', () => {
    const layout = plan({ walls: [WALL], cameras: [] });
    expect(after(layout, moveWallPoint('plan', 'w1', 1, { x: 5, y: -1 }, authors)).walls[0]!.points[1]).toEqual({
      x: 5,
      y: -1,
    });
    expect(nearestOnWall({ walls: [WALL], cameras: [] }, { x: 4.2, y: 1.5 })).toMatchObject({
      x: 4,
      y: 1.5,
      angleDeg: 90,
    });
    expect(after(layout, addDoor('plan', 'd1', { x: 2, y: 0.1 }, 0.5, authors)).doors).toEqual([
      { id: 'd1', x: 2, y: 0, width: 0.9, angleDeg: 0 },
    ]);
    expect(addDoor('plan', 'd1', { x: 2, y: 2 }, 0.5, authors).build(layout)).toEqual({
      notApplicable: 'Add door: click on a wall to put a door in it.',
    });
  });

  it('adds, moves, renames and removes props and characters (a character with its place in every beat)', () => {
    let layout = plan({ walls: [], cameras: [] });
    const next = (intent: { build(layout: Layout): unknown }) => {
      const data = after(layout, intent);
      layout = plan(data);
      return data;
    };
    expect(next(addProp('plan', 'p1', 'Table', { x: 1, y: 2 }, authors)).props).toEqual([
      { id: 'p1', name: 'Table', x: 1, y: 2, width: 1, depth: 0.6 },
    ]);
    let data = next(addCharacter('plan', 'c1', 'Mara', { x: -1, y: 0 }, authors));
    expect(data.characters).toEqual([{ id: 'c1', name: 'Mara' }]);
    expect(data.beats).toEqual([{ id: 'beat-1', positions: [{ character_id: 'c1', x: -1, y: 0 }] }]);
    data = next(moveItem('plan', { kind: 'prop', id: 'p1' }, { x: 2.345, y: 2 }, authors));
    expect(data.props![0]).toMatchObject({ x: 2.35, y: 2 });
    data = next(moveItem('plan', { kind: 'character', id: 'c1' }, { x: 0, y: 1 }, authors));
    expect(data.beats![0]!.positions[0]).toMatchObject({ x: 0, y: 1 });
    data = next(renameItem('plan', { kind: 'prop', id: 'p1' }, 'Lamp', authors));
    expect(data.props![0]!.name).toBe('Lamp');
    data = next(removeItem('plan', { kind: 'character', id: 'c1' }, authors));
    expect(data.characters).toEqual([]);
    expect(data.beats).toEqual([{ id: 'beat-1', positions: [] }]);
    expect(moveItem('plan', { kind: 'character', id: 'c1' }, { x: 0, y: 0 }, authors).build(layout)).toEqual({
      notApplicable: 'Move character: that item was removed meanwhile, so your change was not applied.',
    });
    expect(addProp('gone', 'p2', 'Chair', { x: 0, y: 0 }, authors).build(layout)).toHaveProperty('notApplicable');
  });
});

describe("a conform's report in words", () => {
  const report: ConformReport = {
    revision: 43,
    node_id: 'board',
    format: 'fcp_xml',
    frame_rate: '24',
    clips: 9,
    durations: [{ shot_id: 'd', number: '4', from_ms: 2000, to_ms: 1958, from_frames: 48, to_frames: 47 }],
    moved: [{ shot_id: 'g', number: '7', from_position: 7, to_position: 6 }],
    omitted: [{ shot_id: 'i', number: '9' }],
    restored: [],
    added: [{ shot_id: 'n', number: '2A', name: 'Insert', position: 3, duration_ms: 1500, frames: 36 }],
    notes: ['A gap of 12 frames was left out.'],
  };

  it('names each shot and what changed', () => {
    expect(conformSummary(report, 'Harbour.xml')).toEqual({
      headline:
        'Conformed to Harbour.xml (Final Cut Pro 7 XML (xmeml), 9 clips at 24 fps) in revision 43: 1 duration, 1 moved, 1 omitted, 1 added.',
      details: [
        'Shot 4: 2.00 s → 1.96 s (48 → 47 frames at 24 fps)',
        'Shot 7 moved from place 7 to place 6',
        'Shot 9 was dropped from the cut: marked omitted (kept on the board)',
        'Shot 2A added at place 3: “Insert”, 1.50 s (36 frames)',
        'Note: A gap of 12 frames was left out.',
      ],
    });
  });

  it('says when nothing changed', () => {
    const none = { ...report, revision: null, durations: [], moved: [], omitted: [], added: [], notes: [] };
    expect(conformSummary(none, 'Harbour.edl').headline).toBe(
      'Nothing changed: the board already plays the cut of Harbour.edl (Final Cut Pro 7 XML (xmeml), 9 clips at 24 fps).',
    );
  });
});
