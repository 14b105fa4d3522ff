import { describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { boardSource } from '../../src/exports/board-source.js';

/**
 * Which floor plans a board's PDF prints (docs/storyboards.md, "Floor plans"): those with a camera linked to one of
 * the board's shots, each camera with its shot's number as the board numbers it now (the link holds the shot's id).
 */

const board = CanvasNode.parse({
  id: 'board',
  type: 'storyboardNode',
  position: { x: 0, y: 0 },
  data: {
    frames: [
      { id: 's1', imageUrl: null, number: '1' },
      { id: 's5', imageUrl: null, number: '2A' },
    ],
  },
});

const plan = (id: string, boardId: string, shotId: string) =>
  CanvasNode.parse({
    id,
    type: 'floorPlanNode',
    position: { x: 0, y: 600 },
    data: {
      title: id,
      walls: [],
      cameras: [
        {
          id: 'cam-A',
          name: 'A',
          x: 0,
          y: 0,
          directionDeg: 0,
          sensor: 'super35',
          lensMm: 35,
          shot: { board_node_id: boardId, shot_id: shotId },
        },
        { id: 'cam-B', name: 'B', x: 1, y: 0, directionDeg: 0, sensor: 'super16', lensMm: 12 },
      ],
    },
  });

describe('the floor plans of a board export', () => {
  it('takes the plans filming this board’s shots, with each linked camera’s shot number, and no other plan', () => {
    const nodes = [
      board,
      plan('kitchen', 'board', 's5'),
      plan('elsewhere', 'other-board', 's5'),
      plan('gone', 'board', 'x'),
    ];
    const source = boardSource(
      {
        board,
        nodes: new Map(nodes.map((node) => [node.id, node])),
        edges: [],
        latestPictures: new Map(),
        projectName: 'Spot',
        canvasTitle: 'Main',
      },
      {},
    );
    expect(source.plans.map((each) => [each.title, each.shotNumbers])).toEqual([['kitchen', { 'cam-A': '2A' }]]);
  });
});
