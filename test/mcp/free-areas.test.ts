import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type FreeArea } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { connectClient, deploy, structured, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Placement for external agents: get_canvas carries free areas (past the canvas's end, and beside each board), so an
 * agent that places twenty new nodes inside them, reading again between batches, covers nothing: checked on the final
 * canvas with every node at its drawn place (children of groups inside them), on both stores and through a gateway.
 */

const CARD = { width: 300, height: 220 };
const GAP = 40;

interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The canvas as it starts: a board of twelve shots, a group holding two cards, and cards scattered around them. */
const SEEDED = [
  {
    id: 'board',
    type: 'storyboardNode',
    position: { x: 0, y: 0 },
    data: { frames: Array.from({ length: 12 }, (_, index) => ({ id: `s${index}`, imageUrl: null })) },
  },
  { id: 'group', type: 'groupNode', position: { x: 1000, y: -200 }, width: 700, height: 500, data: { label: 'Props' } },
  ...[
    [40, 60],
    [360, 60],
  ].map(([x, y], index) => ({
    id: `in-group-${index}`,
    type: 'textAnnotationNode',
    parentId: 'group',
    position: { x, y },
    data: { content: `note ${index}` },
  })),
  ...[
    [1900, 0],
    [2300, 400],
    [-600, 900],
  ].map(([x, y], index) => ({
    id: `loose-${index}`,
    type: 'textAnnotationNode',
    position: { x, y },
    data: { content: `loose ${index}` },
  })),
];

/** Every node where the page draws it, at the size the cards here take (a board of 12 frames: 3 columns, 4 rows). */
function drawn(
  nodes: Array<{ id: string; type: string; parentId?: string; position: { x: number; y: number } }>,
): Box[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  return nodes.map((node) => {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    const size =
      node.type === 'storyboardNode'
        ? { width: 820, height: 920 }
        : node.type === 'groupNode'
          ? { width: 700, height: 500 }
          : CARD;
    return {
      id: node.id,
      x: node.position.x + (parent?.position.x ?? 0),
      y: node.position.y + (parent?.position.y ?? 0),
      ...size,
    };
  });
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;

const MODES = [
  ...STORE_TARGETS.map((target) => ({ mode: 'in-process' as const, target })),
  { mode: 'gateway' as const, target: STORE_TARGETS[0]! },
];

describe.each(MODES)('free areas: $mode on $target.name', ({ mode, target }) => {
  describe.skipIf(!target.available)('an external agent places nodes', () => {
    let deployment: McpDeployment;
    let agent: Client;

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { store } = deployment.backend;
      const revision = (await store.layout.readCanvas('p1', 'c1'))!.revision;
      await store.writes.applyBatch(
        { projectId: 'p1', canvasId: 'c1', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
        SEEDED.map((node) => ({ op: 'create_node' as const, node: CanvasNode.parse(node) })),
      );
      agent = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
        'X-Agent-Run-Id': deployment.world.chatRuns.edit,
      });
    }, 60_000);
    afterAll(async () => {
      await agent?.close();
      await deployment?.close();
    });

    const read = async () =>
      structured<{
        layout: {
          revision: number;
          nodes: Array<{ id: string; type: string; parentId?: string; position: { x: number; y: number } }>;
        };
        free_areas: FreeArea[];
      }>(await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } }));

    it('offers an area past the canvas and one beside the board, each covering no node', async () => {
      const { layout, free_areas: areas } = await read();
      expect(areas.map((area) => area.near)).toEqual(['canvas', 'board']);
      const boxes = drawn(layout.nodes);
      for (const area of areas)
        expect(boxes.filter((box) => overlap({ id: area.near, ...area }, box)).map((box) => box.id)).toEqual([]);
      // Beside the board: to its right, starting level with it.
      const beside = areas[1]!;
      expect(beside.x).toBeGreaterThanOrEqual(820);
    });

    it('lets an agent place twenty nodes that overlap nothing, reading again between batches', async () => {
      let placed = 0;
      while (placed < 20) {
        const { layout, free_areas: areas } = await read();
        const area = areas.find((each) => each.near === 'canvas')!;
        const columns = Math.floor((area.width + GAP) / (CARD.width + GAP));
        const rows = Math.floor((area.height + GAP) / (CARD.height + GAP));
        let revision = layout.revision;
        for (let cell = 0; cell < columns * rows && placed < 20; cell += 1, placed += 1) {
          const created = await agent.callTool({
            name: 'create_canvas_node',
            arguments: {
              project_id: 'p1',
              canvas_id: 'c1',
              base_revision: revision,
              node: {
                id: `frame-${placed}`,
                type: 'imageGenNode',
                position: {
                  x: area.x + (cell % columns) * (CARD.width + GAP),
                  y: area.y + Math.floor(cell / columns) * (CARD.height + GAP),
                },
                data: { prompt: `frame ${placed}`, size: '1K', imageUrl: null, aspectRatio: '16:9' },
              },
            },
          });
          expect(created.isError, JSON.stringify(created)).toBeFalsy();
          revision = structured<{ revision: number }>(created).revision;
        }
      }
      const boxes = drawn((await read()).layout.nodes).filter(
        // A group's own cards lie inside it by design.
        (box, _index, all) => !box.id.startsWith('in-group') || !all.some((other) => other.id === 'group'),
      );
      const overlapping = boxes.flatMap((a, index) =>
        boxes.slice(index + 1).flatMap((b) => (overlap(a, b) ? [`${a.id} × ${b.id}`] : [])),
      );
      expect(overlapping).toEqual([]);
      expect(boxes.filter((box) => box.id.startsWith('frame-'))).toHaveLength(20);
    });
  });
});
