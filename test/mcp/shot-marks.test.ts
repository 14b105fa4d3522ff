import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, PUBLISHED_TOOL_NAMES, type Drawing } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { connectClient, structured, toolError } from '../support/mcp.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas } from '../support/tokens.js';
import { IDP } from '../backend/world.js';

/**
 * An agent and a shot's drawing through the official MCP SDK client, on both stores: get_canvas names each shot's
 * drawing; the shot-drawing resource answers its strokes; with the edit-in-place tool the agent adds a camera-move
 * arrow to shot 4's notes layer (its `marks`), which the board picture shows at once and a person can undo; a malformed
 * mark is refused naming the field. The default tools/list stays the six.
 */

const ARROW = {
  tool: 'arrow',
  colour: '#dc2626',
  points: [0.1, 0.5, 0.9, 0.5],
  text: 'Push in',
};

describe.each(STORE_TARGETS)('shot marks by an agent: $name', (target) => {
  describe.skipIf(!target.available)('over MCP', () => {
    let server: TestServer;
    let client: Client;
    let plain: Client;
    let agent: { secret: string; chatRunId: string };

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
            aspectRatio: '16:9',
            frames: ['s1', 's2', 's3', 's4'].map((id) => ({ id, imageUrl: null, caption: `Shot ${id}` })),
          },
        }),
      );
      agent = await agentOnCanvas(server.store, {
        projectId: 'p',
        canvasId: 'c',
        name: 'previs agent',
        toolSets: ['edit'],
      });
      client = await connectClient(server.server.mcpUrl, {
        Authorization: `Bearer ${agent.secret}`,
        'X-Agent-Run-Id': agent.chatRunId,
      });
      const bare = await agentOnCanvas(server.store, { projectId: 'p', canvasId: 'c', name: 'plain agent' });
      plain = await connectClient(server.server.mcpUrl, { Authorization: `Bearer ${bare.secret}` });
    }, 60_000);
    afterAll(async () => {
      await client?.close();
      await plain?.close();
      await server?.close();
    });

    const board = async () => {
      const result = structured<{
        layout: { revision: number; nodes: Array<{ id: string; data: { frames: Array<Record<string, unknown>> } }> };
      }>(await client.callTool({ name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'c' } }));
      return { revision: result.layout.revision, node: result.layout.nodes.find((node) => node.id === 'board')! };
    };

    it('keeps the default tools/list at the six', async () => {
      expect((await plain.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...PUBLISHED_TOOL_NAMES].sort());
    });

    it('reads a shot drawing as a resource', async () => {
      const read = await client.readResource({ uri: 'canvas://p/c/nodes/board/shots/s4/drawing' });
      const drawing = JSON.parse(String((read.contents[0] as { text: string }).text)) as Drawing;
      expect(drawing.format).toBe('canvas-mcp.drawing/1');
      expect(drawing.layers.map((each) => each.name)).toEqual(['rough', 'tone', 'ink', 'notes']);
      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates.map((each) => each.name)).toContain('shot-drawing');
    });

    it('adds a camera-move arrow to shot 4 with the edit-in-place tool; the board picture shows it; a person undoes it', async () => {
      const { revision, node } = await board();
      const frames = node.data.frames.map((frame) => (frame.id === 's4' ? { ...frame, marks: [ARROW] } : frame));
      const result = await client.callTool({
        name: 'apply_canvas_changes',
        arguments: {
          project_id: 'p',
          canvas_id: 'c',
          base_revision: revision,
          operations: [{ op: 'update_node', node_id: 'board', set: { data: { ...node.data, frames } } }],
        },
      });
      expect(result.isError ?? false).toBe(false);
      const after = await board();
      expect(after.node.data.frames[3]!.marks).toEqual([ARROW]);

      // The contact sheet of the board: red along the middle of shot 4's frame, none in shot 3's.
      const picture = await client.readResource({ uri: 'canvas://p/c/board.png?node_id=board' });
      const bytes = Buffer.from(String((picture.contents[0] as { blob: string }).blob), 'base64');
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let red = 0;
      for (let at = 0; at < data.length; at += 3)
        if (data[at]! > 180 && data[at + 1]! < 80 && data[at + 2]! < 80) red += 1;
      expect(red, `${info.width}x${info.height}`).toBeGreaterThan(50);

      // Undone by a person: the agent's change is history like any other.
      await server.store.projects.addMember('p', { issuer: IDP, subject: 'ana' }, 'editor');
      const asAna = await signedInPerson(server, { issuer: IDP, subject: 'ana' });
      const undo = await api(
        server.url,
        `/api/v2/projects/p/canvases/c/chat-runs/${agent.chatRunId}/undo`,
        asAna({ method: 'POST', body: { base_revision: after.revision, client_save_id: null } }),
      );
      expect(undo.status, JSON.stringify(undo.body)).toBe(201);
      expect((await board()).node.data.frames[3]!.marks).toBeUndefined();
    });

    it('refuses a mark that is not of the one form, naming the field, and writes nothing', async () => {
      const { revision, node } = await board();
      const bad = { ...ARROW, colour: 'red' };
      const frames = node.data.frames.map((frame) => (frame.id === 's2' ? { ...frame, marks: [bad] } : frame));
      const result = await client.callTool({
        name: 'apply_canvas_changes',
        arguments: {
          project_id: 'p',
          canvas_id: 'c',
          base_revision: revision,
          operations: [{ op: 'update_node', node_id: 'board', set: { data: { ...node.data, frames } } }],
        },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(toolError(result))).toContain('colour');
      expect((await board()).revision).toBe(revision);
    });
  });
});
