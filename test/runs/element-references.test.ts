import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, ElementView, UploadReceipt, type NodeRun } from '../../src/contract/index.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { FAL_KEY, REPLICATE_TOKEN, startHostedStandIn, type HostedStandIn } from '../support/hosted-standins.js';
import { connectClient, deploy, structured, type McpDeployment } from '../support/mcp.js';
import { api } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { png } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';

/**
 * Elements reaching generation, on both stores through the engine and the providers' stand-ins (fal's queue API and
 * Replicate's predictions API, with their official clients in the path): "Mara" with three reference photos, linked to
 * a generation by `@Mara` in its prompt or by a board's shot whose cast names her; fal's image model that takes
 * references receives the three pictures, Replicate's video model that takes none runs on the prompt alone, and each
 * run record says which elements it was given and whether they were used. An agent reads the elements in get_canvas, in
 * both tool server modes.
 */

const FAL_REFERENCE_MODEL = 'fal-ai/nano-banana/edit';

describe.each(STORE_TARGETS)('element references: $name', (target) => {
  describe.skipIf(!target.available)('through the engine', () => {
    let standIn: HostedStandIn;
    let deployment: McpDeployment;
    let agent: Client;
    let editor: string;
    let mara: ElementView;

    beforeAll(async () => {
      standIn = await startHostedStandIn();
      deployment = await deploy('in-process', target, {
        workers: 1,
        imageProvider: 'fal',
        falQueueUrl: standIn.falUrl,
        falKey: FAL_KEY,
        falImageModel: FAL_REFERENCE_MODEL,
        videoProvider: 'replicate',
        replicateBaseUrl: standIn.replicateUrl,
        replicateApiToken: REPLICATE_TOKEN,
        replicateVideoModel: 'minimax/video-01',
        providerPollMs: 20,
        rateLimitPerMinute: 1_000_000,
      });
      const server = deployment.backend;
      editor = await projectToken(server.store, 'p1', 'editor');
      const form = new FormData();
      for (const [width, height] of [
        [1600, 1200],
        [300, 400],
        [64, 64],
      ] as const)
        form.append('file', new Blob([new Uint8Array(await png(width, height))]), 'mara.png');
      const uploaded = await fetch(`${server.url}/api/v2/projects/p1/canvases/c1/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editor}` },
        body: form,
      });
      const photos = UploadReceipt.parse(await uploaded.json()).uploads.map((file) => file.asset_id);
      const created = await api(server.url, '/api/v1/projects/p1/elements', {
        method: 'POST',
        token: editor,
        body: { kind: 'character', name: 'Mara', notes: 'grey coat', references: photos },
      });
      mara = ElementView.parse(created.body);
      agent = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
        'X-Agent-Run-Id': deployment.world.chatRuns.edit,
      });
    }, 60_000);
    afterAll(async () => {
      await agent?.close();
      await deployment?.close();
      await standIn?.close();
    });

    async function write(node: unknown): Promise<void> {
      const { store } = deployment.backend;
      const canvas = await store.layout.readCanvas('p1', 'c1');
      await store.writes.createNode(
        {
          projectId: 'p1',
          canvasId: 'c1',
          baseRevision: canvas!.revision,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        CanvasNode.parse(node),
      );
    }

    async function run(nodeId: string): Promise<NodeRun> {
      const { store, server } = deployment.backend;
      const { run: submitted } = await submitNodeRun(store, {
        projectId: 'p1',
        canvasId: 'c1',
        nodeId,
        idempotencyKey: null,
        triggeredBy: { kind: 'system', name: 'test' },
      });
      server.engine!.runQueued();
      await waitFor(
        () => store.runs.getRun('p1', 'c1', submitted.run_id),
        (found) => found?.status === 'succeeded' || found?.status === 'failed',
      );
      // The record as an agent reads it.
      return structured<NodeRun>(
        await agent.callTool({
          name: 'get_canvas_node_run',
          arguments: { project_id: 'p1', canvas_id: 'c1', run_id: submitted.run_id },
        }),
      );
    }

    const lastSubmission = (prefix: string) =>
      standIn.requests.filter((request) => request.line.startsWith(`POST ${prefix}`)).at(-1)!.body!;

    it('passes Mara’s three pictures to a model that takes references when a prompt mentions @Mara', async () => {
      await write({
        id: 'pier',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: '@mara on the pier at dawn', size: '1K', imageUrl: null, aspectRatio: '16:9' },
      });
      const record = await run('pier');
      expect(record).toMatchObject({ status: 'succeeded', provider: 'fal' });
      expect(record.references).toEqual({
        elements: [{ element_id: mara.element_id, name: 'Mara', kind: 'character' }],
        images: 3,
        used: true,
      });
      const sent = lastSubmission('/fal/') as { prompt: string; image_urls: string[] };
      expect(sent.prompt).toBe('@mara on the pier at dawn');
      expect(sent.image_urls).toHaveLength(3);
      const pictures = await Promise.all(
        sent.image_urls.map((uri) =>
          sharp(Buffer.from(uri.replace(/^data:image\/jpeg;base64,/, ''), 'base64')).metadata(),
        ),
      );
      expect(pictures.map((picture) => [picture.format, picture.width, picture.height])).toEqual([
        ['jpeg', 1024, 768],
        ['jpeg', 300, 400],
        ['jpeg', 64, 64],
      ]);
    });

    it('passes them for a shot whose cast names MARA, the picture being made for that shot', async () => {
      await write({
        id: 'close',
        type: 'imageGenNode',
        position: { x: 0, y: 400 },
        data: { prompt: 'close on the keeper, rain', size: '1K', imageUrl: null, aspectRatio: '16:9' },
      });
      await write({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 600, y: 0 },
        data: {
          frames: [
            { id: 's1', imageUrl: null, number: '1', cast: ['MARA'], sourceNodeId: 'close' },
            { id: 's2', imageUrl: null, number: '2', location: 'PIER' },
          ],
        },
      });
      const record = await run('close');
      expect(record.references).toMatchObject({ elements: [{ name: 'Mara' }], images: 3, used: true });
      expect((lastSubmission('/fal/') as { image_urls: string[] }).image_urls).toHaveLength(3);
    });

    it('runs a model that takes no references on the prompt alone, and says they were not used', async () => {
      standIn.plans.push({ kind: 'video' });
      await write({
        id: 'walk',
        type: 'videoNode',
        position: { x: 0, y: 800 },
        data: { prompt: '@Mara walks to the lamp', videoUrl: null, aspectRatio: '16:9', durationMs: 3000 },
      });
      const record = await run('walk');
      expect(record).toMatchObject({ status: 'succeeded', provider: 'replicate' });
      expect(record.references).toMatchObject({ elements: [{ name: 'Mara' }], images: 3, used: false });
      const sent = lastSubmission('/replicate/') as { input: Record<string, unknown> };
      expect(Object.keys(sent.input).sort()).toEqual(['aspect_ratio', 'duration', 'prompt']);
    });

    it('gives nothing to a generation no element is linked to, and its record has no references', async () => {
      await write({
        id: 'sea',
        type: 'imageGenNode',
        position: { x: 0, y: 1200 },
        data: { prompt: 'the open sea, mara@example.com', size: '1K', imageUrl: null, aspectRatio: '16:9' },
      });
      const record = await run('sea');
      expect(record.status).toBe('succeeded');
      expect(record.references).toBeUndefined();
      expect(lastSubmission('/fal/')).not.toHaveProperty('image_urls');
    });

    it('shows the project’s elements to an agent in get_canvas, with picture URLs that open', async () => {
      const read = structured<{ elements?: ElementView[] }>(
        await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } }),
      );
      expect(read.elements?.map((element) => [element.name, element.kind, element.references.length])).toEqual([
        ['Mara', 'character', 3],
      ]);
      const picture = await fetch(new URL(read.elements![0]!.references[0]!.url, deployment.backend.url));
      expect(picture.status).toBe(200);
    });
  });
});

describe('elements in get_canvas through a gateway', () => {
  let deployment: McpDeployment;
  let agent: Client;
  beforeAll(async () => {
    deployment = await deploy('gateway', STORE_TARGETS[0]!);
    agent = await connectClient(deployment.mcpUrl, {
      Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
    });
  }, 60_000);
  afterAll(async () => {
    await agent?.close();
    await deployment?.close();
  });

  it('answers no elements field while the project has none, and the elements once it has', async () => {
    const read = async () =>
      structured<Record<string, unknown>>(
        await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } }),
      );
    expect(await read()).not.toHaveProperty('elements');
    const editor = await projectToken(deployment.backend.store, 'p1', 'editor');
    await api(deployment.backend.url, '/api/v1/projects/p1/elements', {
      method: 'POST',
      token: editor,
      body: { kind: 'location', name: 'Lighthouse' },
    });
    expect((await read()).elements).toMatchObject([{ name: 'Lighthouse', kind: 'location', references: [] }]);
  });
});
