import { Readable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAssetStore } from '../../src/assets/local-store.js';
import { CanvasNode } from '../../src/contract/index.js';
import { MAX_BYTES, MAX_EDGE } from '../../src/render/rasterise.js';
import { insertUploadRecords } from '../../src/store/asset-records.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { connectClient, deploy, structured, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * The board as a picture through /mcp, with the official SDK client, on both stores and through a gateway: get_canvas
 * names the picture's URI (an extra field), resources/read of it answers image content whose bytes decode as a PNG
 * within the budget (a storyboard's contact sheet too, and WebP when asked), and a caller who may not read the project
 * is refused.
 */

const MODES = [
  ...STORE_TARGETS.map((target) => ({ mode: 'in-process' as const, target })),
  { mode: 'gateway' as const, target: STORE_TARGETS[0]! },
];

async function keepPicture(deployment: McpDeployment, id: string, colour: string): Promise<void> {
  const bytes = await sharp({ create: { width: 1600, height: 900, channels: 3, background: colour } })
    .png()
    .toBuffer();
  await createLocalAssetStore(deployment.backend.dataDir).put(id, Readable.from([bytes]), bytes.length);
  await deployment.backend.store.driver.transaction((tx) =>
    insertUploadRecords(
      tx,
      [
        {
          id,
          projectId: 'p1',
          canvasId: 'c1',
          kind: 'image',
          mimeType: 'image/png',
          byteSize: bytes.length,
          storage: 'local',
          storageKey: null,
          origin: { uploadedBy: { tokenId: 'test' }, fileName: `${id}.png` },
        },
      ],
      Date.now(),
    ),
  );
}

const PICTURES = ['asset_boardpicture0001', 'asset_boardpicture0002'];

const SEEDED = [
  {
    id: 'board',
    type: 'storyboardNode',
    position: { x: 0, y: 0 },
    data: {
      displayName: 'Opening',
      frames: Array.from({ length: 12 }, (_, index) => ({
        id: `s${index}`,
        imageUrl: `/assets/${PICTURES[index % 2]}`,
        caption: `Shot ${index + 1}`,
      })),
    },
  },
  {
    id: 'still',
    type: 'imageNode',
    position: { x: 1000, y: 0 },
    data: { displayName: 'Still', imageUrl: `/assets/${PICTURES[0]}`, prompt: '', size: '1K', aspectRatio: '16:9' },
  },
  { id: 'note', type: 'textAnnotationNode', position: { x: 1000, y: 400 }, data: { content: 'Rain all day' } },
];

async function imageOf(client: Client, uri: string) {
  const { contents } = await client.readResource({ uri });
  const content = contents[0] as { uri: string; mimeType: string; blob?: string; text?: string };
  expect(content.blob).toBeTypeOf('string');
  const bytes = Buffer.from(content.blob!, 'base64');
  return { mimeType: content.mimeType, bytes, metadata: await sharp(bytes).metadata() };
}

describe.each(MODES)('board picture: $mode on $target.name', ({ mode, target }) => {
  describe.skipIf(!target.available)('read as an MCP resource', () => {
    let deployment: McpDeployment;
    let agent: Client;

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { store } = deployment.backend;
      for (const [index, id] of PICTURES.entries()) await keepPicture(deployment, id, index ? '#2a9d8f' : '#e76f51');
      const revision = (await store.layout.readCanvas('p1', 'c1'))!.revision;
      await store.writes.applyBatch(
        { projectId: 'p1', canvasId: 'c1', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
        SEEDED.map((node) => ({ op: 'create_node' as const, node: CanvasNode.parse(node) })),
      );
      agent = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${deployment.world.tokens.viewer.secret}`,
      });
    }, 60_000);
    afterAll(async () => {
      await agent?.close();
      await deployment?.close();
    });

    it('get_canvas carries the URI, and the resource template is listed', async () => {
      const canvas = structured<{ board_image_uri: string }>(
        await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } }),
      );
      expect(canvas.board_image_uri).toBe('canvas://p1/c1/board.png');
      const { resourceTemplates } = await agent.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.name)).toContain('canvas-board-image');
    });

    it('reads the canvas, a contact sheet and a region as pictures within the budget', async () => {
      const canvas = await imageOf(agent, 'canvas://p1/c1/board.png');
      expect(canvas.mimeType).toBe('image/png');
      expect(canvas.metadata.format).toBe('png');
      expect(Math.max(canvas.metadata.width!, canvas.metadata.height!)).toBeLessThanOrEqual(MAX_EDGE);
      expect(canvas.bytes.length).toBeLessThanOrEqual(MAX_BYTES);
      const stats = await sharp(canvas.bytes).stats();
      expect(Math.max(...stats.channels.map((channel) => channel.stdev))).toBeGreaterThan(10);

      const sheet = await imageOf(agent, 'canvas://p1/c1/board.png?node_id=board');
      expect(sheet.metadata.format).toBe('png');
      expect(sheet.bytes.length).toBeLessThanOrEqual(MAX_BYTES);
      expect(sheet.metadata.width).not.toBe(canvas.metadata.width);

      const region = await imageOf(agent, 'canvas://p1/c1/board.png?x=900&y=-100&width=600&height=800&format=webp');
      expect(region.mimeType).toBe('image/webp');
      expect(region.metadata.format).toBe('webp');
    }, 60_000);

    it('refuses a caller who may not read the project, and names a bad query', async () => {
      const { secret } = await deployment.backend.store.tokens.createToken({
        name: 'p2-viewer',
        kind: 'agent',
        role: 'viewer',
        projects: ['p2'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      const stranger = await connectClient(deployment.mcpUrl, { Authorization: `Bearer ${secret}` });
      try {
        await expect(stranger.readResource({ uri: 'canvas://p1/c1/board.png' })).rejects.toThrow(
          /not permitted on project p1/,
        );
      } finally {
        await stranger.close();
      }
      await expect(agent.readResource({ uri: 'canvas://p1/c1/board.png?format=gif' })).rejects.toThrow(
        /format must be png or webp/,
      );
      await expect(agent.readResource({ uri: 'canvas://p1/c1/board.png?node_id=nope' })).rejects.toThrow(
        /No node nope/,
      );
    }, 30_000);
  });
});
