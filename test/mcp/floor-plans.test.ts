import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { connectClient, structured, toolError } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas } from '../support/tokens.js';

/**
 * Floor plans by an agent through the official MCP SDK client, on both stores: create_canvas_node takes a
 * floorPlanNode (validated, refusals name the field); a camera linked to shot 5 gives the shot its lens in the same
 * revision; the link holds the shot's id, so it survives renumbering, and a later change of the shot's lens reaches
 * the camera.
 */

const camera = (lensMm: number) => ({
  id: 'cam-A',
  name: 'A',
  x: 1,
  y: 4,
  directionDeg: -20,
  sensor: 'super35',
  lensMm,
  shot: { board_node_id: 'board', shot_id: 's5' },
});

const plan = {
  id: 'plan',
  type: 'floorPlanNode',
  position: { x: 900, y: 0 },
  data: {
    title: 'Scene 2',
    walls: [
      {
        id: 'w1',
        points: [
          { x: 0, y: 0 },
          { x: 8, y: 0 },
          { x: 8, y: 6 },
          { x: 0, y: 6 },
        ],
      },
    ],
    doors: [{ id: 'd1', x: 3, y: 0, width: 0.9, angleDeg: 90 }],
    props: [{ id: 'table', name: 'Table', x: 4, y: 3, width: 1.6, depth: 0.9 }],
    characters: [{ id: 'mara', name: 'Mara' }],
    beats: [{ id: 'b1', positions: [{ character_id: 'mara', x: 5, y: 2 }] }],
    cameras: [camera(35)],
  },
};

type Read = {
  layout: { revision: number; nodes: Array<{ id: string; type: string; data: Record<string, unknown> }> };
};

describe.each(STORE_TARGETS)('floor plans by an agent: $name', (target) => {
  describe.skipIf(!target.available)('over MCP', () => {
    let server: TestServer;
    let client: Client;

    beforeAll(async () => {
      server = await startTestServer(target);
      await server.store.projects.createWorkspace('w');
      await server.store.projects.createProject('p', 'w');
      await server.store.projects.createCanvas('p', 'c', false);
      await server.store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: {
            frames: ['s1', 's2', 's3', 's4', 's5', 's6'].map((id, index) => ({
              id,
              imageUrl: null,
              number: String(index + 1),
              lensMm: 50,
            })),
          },
        }),
      );
      const agent = await agentOnCanvas(server.store, {
        projectId: 'p',
        canvasId: 'c',
        name: 'previs agent',
        toolSets: ['edit'],
      });
      client = await connectClient(server.server.mcpUrl, {
        Authorization: `Bearer ${agent.secret}`,
        'X-Agent-Run-Id': agent.chatRunId,
      });
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      await server?.close();
    });

    const read = async () =>
      structured<Read>(await client.callTool({ name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'c' } }));
    const nodeOf = (snapshot: Read, id: string) => snapshot.layout.nodes.find((node) => node.id === id)!;
    const shot5 = (snapshot: Read) =>
      (nodeOf(snapshot, 'board').data.frames as Array<Record<string, unknown>>).find((frame) => frame.id === 's5')!;

    it('refuses a plan whose camera has an unknown sensor format, naming the field', async () => {
      const { layout } = await read();
      const bad = { ...plan, data: { ...plan.data, cameras: [{ ...camera(35), sensor: 'imax' }] } };
      const result = await client.callTool({
        name: 'create_canvas_node',
        arguments: { project_id: 'p', canvas_id: 'c', base_revision: layout.revision, node: bad },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(toolError(result))).toContain('node.data.cameras.0.sensor');
    });

    it('creates the plan; the linked shot 5 takes the camera’s 35 mm in the same revision', async () => {
      const before = await read();
      const result = await client.callTool({
        name: 'create_canvas_node',
        arguments: { project_id: 'p', canvas_id: 'c', base_revision: before.layout.revision, node: plan },
      });
      expect(result.isError ?? false).toBe(false);
      const after = await read();
      expect(after.layout.revision).toBe(before.layout.revision + 1);
      expect(nodeOf(after, 'plan').type).toBe('floorPlanNode');
      expect(nodeOf(after, 'plan').data.cameras).toEqual([camera(35)]);
      expect(shot5(after).lensMm).toBe(35);
    });

    it('keeps the link through renumbering, and a new lens on the shot reaches the camera', async () => {
      const { layout } = await read();
      const board = nodeOf({ layout }, 'board');
      // A shot inserted before shot 5 and the board renumbered: s5 is now shot 6, and its lens becomes 85 mm.
      const frames = board.data.frames as Array<Record<string, unknown>>;
      const renumbered = [...frames.slice(0, 4), { id: 'new', imageUrl: null }, ...frames.slice(4)].map(
        (frame, index) => ({ ...frame, number: String(index + 1), ...(frame.id === 's5' ? { lensMm: 85 } : {}) }),
      );
      const result = await client.callTool({
        name: 'apply_canvas_changes',
        arguments: {
          project_id: 'p',
          canvas_id: 'c',
          base_revision: layout.revision,
          operations: [{ op: 'update_node', node_id: 'board', set: { data: { ...board.data, frames: renumbered } } }],
        },
      });
      expect(result.isError ?? false).toBe(false);
      const after = await read();
      expect(after.layout.revision).toBe(layout.revision + 1);
      expect(shot5(after).number).toBe('6');
      expect(nodeOf(after, 'plan').data.cameras).toEqual([camera(85)]);
    });
  });
});
