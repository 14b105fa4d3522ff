import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { connectClient, deploy, structured, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * MCP prompts through the official SDK client, on both stores and through a gateway: a host lists three prompts,
 * completes their arguments from what the token can open (projects, the project's canvases, the canvas's boards and
 * scripts), and gets a message that works with the six tools; a project the token cannot read is refused, and
 * tools/list is still the six.
 */

const MODES = [
  ...STORE_TARGETS.map((target) => ({ mode: 'in-process' as const, target })),
  { mode: 'gateway' as const, target: STORE_TARGETS[0]! },
];

describe.each(MODES)('MCP prompts: $mode on $target.name', ({ mode, target }) => {
  describe.skipIf(!target.available)('through the SDK client', () => {
    let deployment: McpDeployment;
    let host: Client;

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { store } = deployment.backend;
      const write = { projectId: 'p1', canvasId: 'c1', clientSaveId: null, authorization: SYSTEM_WRITE };
      const revision = (await store.layout.readCanvas('p1', 'c1'))!.revision;
      await store.writes.applyBatch({ ...write, baseRevision: revision }, [
        {
          op: 'create_node',
          node: CanvasNode.parse({
            id: 'board-pier',
            type: 'storyboardNode',
            position: { x: 0, y: 0 },
            data: { frames: [] },
          }),
        },
        {
          op: 'create_node',
          node: CanvasNode.parse({
            id: 'board-lamp',
            type: 'storyboardNode',
            position: { x: 0, y: 600 },
            data: { frames: [] },
          }),
        },
        {
          op: 'create_node',
          node: CanvasNode.parse({
            id: 'script',
            type: 'scriptNode',
            position: { x: 900, y: 0 },
            data: { prompt: 'The lighthouse' },
          }),
        },
      ]);
      host = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
      });
    }, 60_000);
    afterAll(async () => {
      await host?.close();
      await deployment?.close();
    });

    const complete = async (prompt: string, name: string, value: string, context: Record<string, string> = {}) =>
      (
        await host.complete({
          ref: { type: 'ref/prompt', name: prompt },
          argument: { name, value },
          context: { arguments: context },
        })
      ).completion.values;

    it('lists three prompts with their arguments, and tools/list is still the six tools', async () => {
      expect(host.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {} });
      const { prompts } = await host.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual([
        'storyboard_scene',
        'review_board',
        'shot_list_from_script',
      ]);
      expect(prompts[1]!.arguments!.map((argument) => [argument.name, argument.required])).toEqual([
        ['project_id', true],
        ['canvas_id', true],
        ['board_node_id', true],
      ]);
      expect((await host.listTools()).tools).toHaveLength(6);
    });

    it('completes projects, canvases, boards and scripts from what the token can open', async () => {
      expect(await complete('review_board', 'project_id', '')).toEqual(['p1']);
      expect(await complete('review_board', 'canvas_id', 'c-', { project_id: 'p1' })).toEqual(['c-locked', 'c-other']);
      expect(await complete('review_board', 'canvas_id', '', { project_id: 'p2' })).toEqual([]);
      expect(await complete('review_board', 'board_node_id', 'board', { project_id: 'p1', canvas_id: 'c1' })).toEqual([
        'board-pier',
        'board-lamp',
      ]);
      expect(
        await complete('shot_list_from_script', 'script_node_id', '', { project_id: 'p1', canvas_id: 'c1' }),
      ).toEqual(['script']);
    });

    it('answers a message that works with the six tools on the canvas named', async () => {
      const prompt = await host.getPrompt({
        name: 'review_board',
        arguments: { project_id: 'p1', canvas_id: 'c1', board_node_id: 'board-pier' },
      });
      expect(prompt.messages).toHaveLength(1);
      const text = (prompt.messages[0]!.content as { text: string }).text;
      expect(text).toContain('Read canvas "c1" of project "p1" with get_canvas first');
      expect(text).toContain('Review the board board-pier shot by shot');
      // A read of the canvas the message names works with the same token.
      const read = structured<{ layout: { nodes: Array<{ id: string }> } }>(
        await host.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } }),
      );
      expect(read.layout.nodes.map((node) => node.id)).toContain('board-pier');
    });

    it('refuses a missing argument naming it, an unknown prompt, and a project the token cannot read', async () => {
      await expect(
        host.getPrompt({ name: 'storyboard_scene', arguments: { project_id: 'p1', canvas_id: 'c1' } }),
      ).rejects.toThrow(/storyboard_scene: scene/);
      await expect(host.getPrompt({ name: 'make_a_film', arguments: {} })).rejects.toThrow(/no prompt "make_a_film"/);
      await expect(
        host.getPrompt({
          name: 'storyboard_scene',
          arguments: { project_id: 'p2', canvas_id: 'c2', scene: 'the storm' },
        }),
      ).rejects.toThrow(/may not open project p2/);
    });
  });
});
