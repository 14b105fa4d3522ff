import { describe, expect, it } from 'vitest';
import { CanvasNode, CreateCanvasNodeArgs, NODE_TYPES, SPEC_NODE_TYPES } from '../../src/contract/index.js';
import { accept, expectVerdict, refuse } from '../support/dual-validator.js';
import { MINIMAL_DATA, node } from '../support/node-fixtures.js';

const group = node('groupNode');

function createArgs(nodeValue: unknown) {
  return { project_id: 'demo', canvas_id: 'main', base_revision: 0, node: nodeValue };
}

describe('node envelope (spec: Node envelope)', () => {
  it.each([
    accept('the required fields only', group),
    accept('every optional field', {
      ...group,
      width: 320,
      height: 0.5,
      style: { width: 320, height: 200, zIndex: -1 },
      parentId: 'g1',
      extent: 'parent',
      expandParent: true,
      hidden: false,
      selected: true,
      draggable: true,
      selectable: true,
      connectable: false,
      deletable: true,
      zIndex: 3,
    }),
    accept('an empty style', { ...group, style: {} }),
    accept('negative and fractional positions', { ...group, position: { x: -1e6, y: 0.25 } }),
    refuse('an unknown envelope property', { ...group, label: 'x' }),
    refuse('a missing id', { type: 'groupNode', position: { x: 0, y: 0 }, data: { label: 'g' } }),
    refuse('a missing type', { id: 'n', position: { x: 0, y: 0 }, data: { label: 'g' } }),
    refuse('a missing position', { id: 'n', type: 'groupNode', data: { label: 'g' } }),
    refuse('a missing data', { id: 'n', type: 'groupNode', position: { x: 0, y: 0 } }),
    refuse('position with a z', { ...group, position: { x: 0, y: 0, z: 1 } }),
    refuse('position without y', { ...group, position: { x: 0 } }),
    refuse('position with a string coordinate', { ...group, position: { x: '0', y: 0 } }),
    // Without bounds, one node at 1e20 (or 1e308 wide) blanked the whole canvas. Bounds: docs/contract.md, "Limits".
    accept('a position at the bounds (±10^7)', { ...group, position: { x: -1e7, y: 1e7 } }),
    accept('a size at the bound (10^5)', { ...group, width: 1e5, height: 1e5, style: { width: 1e5, height: 1e5 } }),
    refuse('x beyond 10^7', { ...group, position: { x: 1e20, y: 0 } }),
    refuse('y below -10^7', { ...group, position: { x: 0, y: -10_000_001 } }),
    refuse('width beyond 10^5', { ...group, width: 1e308 }),
    refuse('height beyond 10^5', { ...group, height: 100_001 }),
    refuse('style width beyond 10^5', { ...group, style: { width: 1e6 } }),
    refuse('width 0', { ...group, width: 0 }),
    refuse('width -1', { ...group, width: -1 }),
    refuse('height 0', { ...group, height: 0 }),
    refuse('style width 0', { ...group, style: { width: 0 } }),
    refuse('style height -5', { ...group, style: { height: -5 } }),
    refuse('style zIndex 1.5', { ...group, style: { zIndex: 1.5 } }),
    refuse('style with an unknown key', { ...group, style: { color: 'red' } }),
    refuse('extent other than parent', { ...group, extent: 'child' }),
    refuse('extent as a coordinate extent array', {
      ...group,
      extent: [
        [0, 0],
        [1, 1],
      ],
    }),
    refuse('expandParent as a string', { ...group, expandParent: 'yes' }),
    ...(['hidden', 'selected', 'draggable', 'selectable', 'connectable', 'deletable'] as const).map((flag) =>
      refuse(`${flag} as a number`, { ...group, [flag]: 1 }),
    ),
    refuse('zIndex 1.5', { ...group, zIndex: 1.5 }),
    refuse('type textNode (not a registered type)', { ...group, type: 'textNode', data: { content: 'x' } }),
    refuse('type in another case', { ...group, type: 'GroupNode' }),
    refuse('data not matching its type (imageNode data under groupNode)', {
      ...group,
      data: MINIMAL_DATA.imageNode,
    }),
    refuse('data as an array', { ...group, data: [] }),
  ])('$name → valid: $valid', ({ value, valid }) => {
    expectVerdict(CreateCanvasNodeArgs, createArgs(value), valid);
  });

  it('registers the 18 node types of the spec, and floorPlanNode beyond them', () => {
    expect(NODE_TYPES).toEqual([...SPEC_NODE_TYPES, 'floorPlanNode']);
    expect([...SPEC_NODE_TYPES].sort()).toEqual(
      [
        'uploadNode',
        'imageNode',
        'imageGenNode',
        'exportImageNode',
        'beatContextNode',
        'textAnnotationNode',
        'groupNode',
        'storyboardNode',
        'storyboardGenNode',
        'videoNode',
        'audioNode',
        'audioTrimNode',
        'videoStoryNode',
        'videoComposeNode',
        'scriptNode',
        'pano360ViewerNode',
        'threeDWorldNode',
        'skillNode',
      ].sort(),
    );
  });

  it('accepts a text node the way the spec describes one', () => {
    const text = {
      id: 'note-1',
      type: 'textAnnotationNode',
      position: { x: 0, y: 0 },
      data: { content: 'The storm arrives', displayName: 'Scene 1' },
    };
    expectVerdict(CanvasNode, text, true);
  });
});
