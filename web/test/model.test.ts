import { describe, expect, it } from 'vitest';
import { CanvasNode, NODE_TYPES, type CanvasEdge, type LayoutEvent } from '../../src/contract/index.js';
import { createItems, deleteItems, moveNodes, patchData } from '../src/model/intents.js';
import { applyLayoutEvent, authorLabel, inverseOperations, parentsFirst, type Layout } from '../src/model/layout.js';
import { PALETTE, paletteNode } from '../src/model/palette.js';
import { layoutBounds } from '../src/canvas/fit.js';
import { toFlowNodes } from '../src/canvas/flow-nodes.js';
import { safeMediaUrl } from '../src/cards/media-url.js';
import { describeOperations, modelContextText } from '../src/mcp-app/host-transport.js';

/** The page's model in plain TypeScript: what it does to a layout, and what it sends, without a browser. */

const note = (id: string, x = 0, extra: Partial<CanvasNode> = {}) =>
  ({ id, type: 'textAnnotationNode', position: { x, y: 0 }, data: { content: id }, ...extra }) as CanvasNode;
const edge = (id: string, source: string, target: string): CanvasEdge => ({ id, source, target });
const agent = { kind: 'agent' as const, token_id: 'tok_1', token_name: 'claude', agent_run_id: 'chat_1' };

function layoutOf(nodes: CanvasNode[], edges: CanvasEdge[] = [], revision = 3): Layout {
  return { revision, nodes, edges };
}

describe('applying the change feed', () => {
  it('creates, updates and deletes nodes and edges, and moves to the event revision', () => {
    const before = layoutOf([note('a'), note('b')], [edge('e1', 'a', 'b')]);
    const event: LayoutEvent = {
      revision: 4,
      author: agent,
      at: null,
      operation: 'batch',
      changes: [
        { kind: 'node', id: 'a', change: 'update', node: note('a', 50) },
        { kind: 'node', id: 'c', change: 'create', node: note('c') },
        { kind: 'edge', id: 'e1', change: 'delete' },
        { kind: 'node', id: 'b', change: 'delete' },
      ],
    };
    const after = applyLayoutEvent(before, event);
    expect(after.revision).toBe(4);
    expect(after.nodes.map((node) => [node.id, node.position.x])).toEqual([
      ['a', 50],
      ['c', 0],
    ]);
    expect(after.edges).toEqual([]);
  });

  it('puts a parent before its children whatever order they arrive in', () => {
    const ordered = parentsFirst([note('child', 0, { parentId: 'group' }), note('group')]);
    expect(ordered.map((node) => node.id)).toEqual(['group', 'child']);
  });

  it("names an agent by its token's name", () => {
    expect(authorLabel(agent)).toBe('claude (agent)');
    expect(authorLabel({ ...agent, on_behalf_of: { issuer: 'idp', subject: 'alice' } })).toBe(
      'claude (agent of alice)',
    );
    expect(authorLabel(null)).toBe('someone');
  });
});

describe("the person's changes", () => {
  const authors = () => ({ gone: agent });

  it('sends a drag of several nodes as one batch, skipping nodes that did not move', () => {
    const layout = layoutOf([note('a'), note('b'), note('c')]);
    const built = moveNodes(
      [
        { id: 'a', position: { x: 10, y: 0 } },
        { id: 'b', position: { x: 0, y: 0 } },
        { id: 'c', position: { x: 5, y: 5 } },
      ],
      authors,
    ).build(layout);
    expect(built).toEqual([
      { op: 'update_node', node_id: 'a', set: { position: { x: 10, y: 0 } } },
      { op: 'update_node', node_id: 'c', set: { position: { x: 5, y: 5 } } },
    ]);
  });

  it('re-applies a move on a re-read layout, and says who deleted the node when it is gone', () => {
    const intent = moveNodes([{ id: 'gone', position: { x: 1, y: 1 } }], authors);
    expect(intent.build(layoutOf([note('gone')]))).toEqual([
      { op: 'update_node', node_id: 'gone', set: { position: { x: 1, y: 1 } } },
    ]);
    expect(intent.build(layoutOf([]))).toEqual({ notApplicable: expect.stringContaining('deleted by claude (agent)') });
  });

  it('edits one data field on the data the node has when the change is sent, keeping what others changed', () => {
    const intent = patchData('a', { content: 'mine' }, 'Edit note', authors, 'mine');
    const current = note('a', 0, {
      data: { content: 'theirs', displayName: 'renamed by the agent' },
    } as Partial<CanvasNode>);
    expect(intent.build(layoutOf([current]))).toEqual([
      { op: 'update_node', node_id: 'a', set: { data: { content: 'mine', displayName: 'renamed by the agent' } } },
    ]);
    expect(intent.keep).toBe('mine');
  });

  it('deletes a node without sending its edges again (they go with it), but sends other selected edges', () => {
    const layout = layoutOf([note('a'), note('b'), note('c')], [edge('ab', 'a', 'b'), edge('bc', 'b', 'c')]);
    expect(deleteItems(['a'], ['ab', 'bc'], layout).build(layout)).toEqual([
      { op: 'delete_edge', edge_id: 'bc' },
      { op: 'delete_node', node_id: 'a' },
    ]);
  });

  it('pastes a child at the root when its group was not pasted and no longer exists', () => {
    const built = createItems([note('copy', 0, { parentId: 'vanished', extent: 'parent' })], [], 'Paste').build(
      layoutOf([]),
    );
    expect(built).toEqual([{ op: 'create_node', node: note('copy') }]);
  });
});

describe('undo', () => {
  it('undoes a move by setting the position back, and a delete by restoring the node, its edges and its children', () => {
    const group = note('group');
    const child = note('child', 7, { parentId: 'group', extent: 'parent' });
    const before = layoutOf([group, child, note('other')], [edge('g-o', 'group', 'other')]);
    expect(
      inverseOperations(before, [{ op: 'update_node', node_id: 'other', set: { position: { x: 9, y: 9 } } }]),
    ).toEqual([{ op: 'update_node', node_id: 'other', set: { position: { x: 0, y: 0 } } }]);
    expect(inverseOperations(before, [{ op: 'delete_node', node_id: 'group' }])).toEqual([
      { op: 'create_node', node: group },
      { op: 'create_edge', edge: edge('g-o', 'group', 'other') },
      { op: 'update_node', node_id: 'child', set: { parentId: 'group', position: { x: 7, y: 0 }, extent: 'parent' } },
    ]);
  });

  it('undoes a field the node did not have by removing it (null)', () => {
    const before = layoutOf([note('a')]);
    expect(inverseOperations(before, [{ op: 'update_node', node_id: 'a', set: { width: 300 } }])).toEqual([
      { op: 'update_node', node_id: 'a', set: { width: null } },
    ]);
  });
});

describe('the palette', () => {
  it('offers every node type', () => {
    expect(PALETTE.map((entry) => entry.type).sort()).toEqual([...NODE_TYPES].sort());
  });

  it.each(PALETTE.map((entry) => [entry.type, entry] as const))(
    'adds a %s that the contract accepts as it stands',
    (_type, entry) => {
      expect(CanvasNode.safeParse(paletteNode(entry, { x: 10, y: 20 })).error?.issues).toBeUndefined();
    },
  );
});

describe('a node far beyond the bounds, stored before they existed', () => {
  const far = note('far', 0, { position: { x: 1e20, y: 1e20 }, width: 1e308 });

  it('is left out of the bounds fit uses, so fit still frames the other nodes', () => {
    expect(layoutBounds([note('a', 0), note('b', 600), far])).toEqual({ x: 0, y: 0, width: 880, height: 200 });
    expect(layoutBounds([far])).toBeNull();
  });

  it('is drawn at the edge of the bounds, not where React Flow and its minimap would lose everything else', () => {
    const [drawn] = toFlowNodes([far], {}, {}, true, []);
    expect(drawn!.position).toEqual({ x: 1e7, y: 1e7 });
    expect(drawn!.width).toBe(1e5);
  });
});

describe('what a card may fetch', () => {
  const origin = 'http://127.0.0.1:8787';
  it.each([
    ['/assets/asset_abc', `${origin}/assets/asset_abc`],
    [`${origin}/assets/asset_abc`, `${origin}/assets/asset_abc`],
    ['/static/x.png', `${origin}/static/x.png`],
    ['/auth/login?token=login_secret', undefined],
    ['/%61uth/login?token=login_secret', undefined],
    ['/./auth/login?token=x', undefined],
    ['/api/v2/projects/p/canvases/c/revert', undefined],
    ['/mcp/', undefined],
    ['/metrics', undefined],
    ['https://evil.example/pixel.png', undefined],
    ['//evil.example/pixel.png', undefined],
    ['javascript:alert(1)', undefined],
    ['data:image/png;base64,AAAA', undefined],
  ])('%s → %s', (url, expected) => {
    expect(safeMediaUrl(url, origin)).toBe(expected);
  });

  it("draws nothing when the media origin is unknown (the MCP App without the server's URL)", () => {
    expect(safeMediaUrl('/assets/asset_abc', null)).toBeUndefined();
  });
});

describe("the MCP App's words to the model", () => {
  const named = new Map([
    ['n1', note('n1', 0, { data: { content: 'x', displayName: 'Opening' } } as Partial<CanvasNode>)],
  ]);

  it('names each change with the ids the model needs', () => {
    expect(
      describeOperations(
        [
          { op: 'update_node', node_id: 'n1', set: { position: { x: 10, y: 20 } } },
          { op: 'update_node', node_id: 'n2', set: { data: { content: 'new' } } },
          { op: 'delete_node', node_id: 'n1' },
          { op: 'create_edge', edge: edge('e', 'n1', 'n2') },
        ],
        named,
      ),
    ).toEqual(['moved "Opening" (n1) to (10, 20)', 'edited n2', 'deleted "Opening" (n1)', 'connected n1 to n2']);
  });

  it('points to the outline resources only when the canvas is large', () => {
    const address = { projectId: 'p', canvasId: 'c' };
    expect(modelContextText(address, 7, ['Move: moved n1 to (1, 2)'], 40)).not.toContain('canvas://');
    expect(modelContextText(address, 7, ['Move: moved n1 to (1, 2)'], 10_000)).toContain(
      'read the resource canvas://p/c/outline',
    );
  });
});
