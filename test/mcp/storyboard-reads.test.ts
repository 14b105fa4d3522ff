import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, deploy, structured, toolError, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Agents and storyboards, through the six published tools on both stores: an agent creates a board of numbered shots
 * with their fields as a storyboard node, reads the whole structure back from get_canvas, finds the shots listed in the
 * outline resource of a large canvas, and a wrong field value is refused naming the field.
 */

const CANVAS = { project_id: 'p1', canvas_id: 'c1' };

const BOARD = {
  id: 'board',
  type: 'storyboardNode',
  position: { x: 0, y: 0 },
  data: {
    title: 'Opening',
    aspectRatio: '2.39:1',
    numbersLocked: true,
    frames: [
      { id: 'wide', imageUrl: null, number: '1', scene: '1', shotSize: 'EWS', movement: 'crane', caption: 'The bay' },
      {
        id: 'mara',
        imageUrl: null,
        number: '1A',
        scene: '1',
        shotSize: 'CU',
        lensMm: 85,
        dialogue: 'It is still burning.',
        cast: ['Mara'],
        status: 'for_review',
      },
    ],
  },
};

describe.each(STORE_TARGETS)('storyboards for agents: $name', (target) => {
  describe.skipIf(!target.available)('through the six tools', () => {
    let deployment: McpDeployment;
    let agent: Client;

    beforeAll(async () => {
      deployment = await deploy('in-process', target);
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
      structured<{ layout: { revision: number; nodes: Array<{ id: string; data: Record<string, unknown> }> } }>(
        await agent.callTool({ name: 'get_canvas', arguments: CANVAS }),
      ).layout;

    it('creates a board of shots with create_canvas_node and reads every number and field back from get_canvas', async () => {
      const before = await read();
      const created = await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...CANVAS, base_revision: before.revision, node: BOARD },
      });
      expect(created.isError, JSON.stringify(created)).toBeFalsy();
      const board = (await read()).nodes.find((node) => node.id === 'board')!;
      expect(board.data).toEqual(BOARD.data);
    });

    it('lists the shots in order in the outline resource', async () => {
      const text = ((await agent.readResource({ uri: 'canvas://p1/c1/outline' })).contents[0] as { text: string }).text;
      const lines = text.split('\n');
      const header = lines.indexOf('board\tshot\tid\tscene\tsize\tstatus\tdescription');
      expect(header).toBeGreaterThan(0);
      expect(lines.slice(header + 1, header + 3)).toEqual([
        'board\t1\twide\t1\tEWS\t-\tThe bay',
        'board\t1A\tmara\t1\tCU\tfor_review\t-',
      ]);
    });

    it('refuses a shot size it does not know, naming the field', async () => {
      const result = await agent.callTool({
        name: 'create_canvas_node',
        arguments: {
          ...CANVAS,
          base_revision: (await read()).revision,
          node: {
            ...BOARD,
            id: 'board-2',
            data: { frames: [{ id: 's', imageUrl: null, shotSize: 'very close', number: '1' }] },
          },
        },
      });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(toolError(result))).toContain('frames.0.shotSize');
    });
  });
});
