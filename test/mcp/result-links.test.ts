import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitNodeRun } from '../../src/runs/submit.js';
import type { World } from '../backend/world.js';
import { MODES, connectClient, deploy, structured, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/** Results a client can use: absolute asset URLs everywhere, and resource links for a run's finished outputs. */

const ids = { project_id: 'p1', canvas_id: 'c1' };
/** Absolute, and signed: readable with no other credential until it expires. */
const ABSOLUTE_ASSET = /^https?:\/\/[^/]+\/assets\/asset_[A-Za-z0-9_-]{16}\?exp=\d+&sig=[A-Za-z0-9_-]+$/;

interface RunRecord {
  status: string;
  outputs: Array<{ asset_id: string; url: string; mime_type: string; kind: string }>;
}

describe.each(MODES)('result links: %s', (mode) => {
  let deployment: McpDeployment;
  let world: World;
  let agent: Client;
  let runId: string;

  beforeAll(async () => {
    deployment = await deploy(mode, STORE_TARGETS[0]!, { workers: 1, runDurationMs: 20 });
    world = deployment.world;
    agent = await connectClient(deployment.mcpUrl, {
      Authorization: `Bearer ${world.tokens.editor.secret}`,
      'X-Agent-Run-Id': world.chatRuns.edit,
    });
    const read = await agent.callTool({ name: 'get_canvas', arguments: ids });
    const node = {
      id: 'linked',
      type: 'imageGenNode',
      position: { x: 0, y: 0 },
      data: { prompt: 'a lighthouse', size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
    };
    await agent.callTool({
      name: 'create_canvas_node',
      arguments: { ...ids, base_revision: structured<{ layout: { revision: number } }>(read).layout.revision, node },
    });
    ({
      run: { run_id: runId },
    } = await submitNodeRun(deployment.backend.store, {
      projectId: 'p1',
      canvasId: 'c1',
      nodeId: 'linked',
      idempotencyKey: null,
      triggeredBy: { kind: 'system', name: 'test' },
    }));
    await waitFor(
      async () =>
        structured<RunRecord>(
          await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: runId } }),
        ).status,
      (status) => status === 'succeeded',
    );
  });
  afterAll(async () => {
    await agent?.close();
    await deployment?.close();
  });

  it('get_canvas_node_run answers absolute output URLs and one resource_link per output, with name, type and size', async () => {
    const result = (await agent.callTool({
      name: 'get_canvas_node_run',
      arguments: { ...ids, run_id: runId },
    })) as CallToolResult;
    const run = structured<RunRecord>(result);
    expect(run.outputs.length).toBeGreaterThan(0);
    for (const output of run.outputs) expect(output.url).toMatch(ABSOLUTE_ASSET);
    // The text block is the structured result, and the links follow it.
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(run);
    const links = result.content.slice(1);
    expect(links).toHaveLength(run.outputs.length);
    for (const [index, link] of links.entries()) {
      const output = run.outputs[index]!;
      expect(link).toMatchObject({
        type: 'resource_link',
        uri: output.url,
        mimeType: output.mime_type,
        name: expect.stringMatching(/^linked-image\.png$/),
      });
      const file = await fetch((link as { uri: string }).uri);
      expect(file.status).toBe(200);
      expect((link as { size?: number }).size).toBe(Buffer.from(await file.arrayBuffer()).length);
    }
  });

  it('get_canvas answers the node state resource URLs absolute', async () => {
    const snapshot = structured<{ node_states: Record<string, { resources: Array<{ url: string | null }> }> }>(
      await agent.callTool({ name: 'get_canvas', arguments: ids }),
    );
    const urls = snapshot.node_states.linked!.resources.map((resource) => resource.url);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(ABSOLUTE_ASSET);
  });

  it('rewrites only URL fields: a prompt that reads like an asset path stays as written', async () => {
    const run = structured<RunRecord>(
      await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: runId } }),
    );
    const path = `/assets/${run.outputs[0]!.asset_id}`;
    const read = await agent.callTool({ name: 'get_canvas', arguments: ids });
    const node = {
      id: 'quoting',
      type: 'imageGenNode',
      position: { x: 300, y: 0 },
      data: { prompt: path, size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
    };
    await agent.callTool({
      name: 'create_canvas_node',
      arguments: { ...ids, base_revision: structured<{ layout: { revision: number } }>(read).layout.revision, node },
    });
    const snapshot = structured<{ layout: { nodes: Array<{ id: string; data: { prompt?: string } }> } }>(
      await agent.callTool({ name: 'get_canvas', arguments: ids }),
    );
    expect(snapshot.layout.nodes.find((each) => each.id === 'quoting')?.data.prompt).toBe(path);
  });

  it('a run without outputs has no links', async () => {
    const { run } = await submitNodeRun(deployment.backend.store, {
      projectId: 'p1',
      canvasId: 'c1',
      nodeId: 'linked',
      idempotencyKey: 'again',
      triggeredBy: { kind: 'system', name: 'test' },
    });
    const cancelled = (await agent.callTool({
      name: 'cancel_canvas_node_run',
      arguments: { ...ids, run_id: run.run_id },
    })) as CallToolResult;
    expect(cancelled.content).toHaveLength(1);
  });
});

describe('--public-url', () => {
  let deployment: McpDeployment;
  let agent: Client;
  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!, {
      workers: 1,
      runDurationMs: 20,
      publicUrl: 'https://canvas.example/base',
    });
    // The server listens on loopback; clients would reach it through the proxy at the public URL.
    agent = await connectClient(`http://127.0.0.1:${deployment.backend.server.port}/mcp/`, {
      Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
      'X-Agent-Run-Id': deployment.world.chatRuns.edit,
    });
  });
  afterAll(async () => {
    await agent?.close();
    await deployment?.close();
  });

  it('puts asset URLs under the configured public URL', async () => {
    const read = await agent.callTool({ name: 'get_canvas', arguments: ids });
    const node = {
      id: 'public',
      type: 'imageGenNode',
      position: { x: 0, y: 0 },
      data: { prompt: 'gulls', size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
    };
    await agent.callTool({
      name: 'create_canvas_node',
      arguments: { ...ids, base_revision: structured<{ layout: { revision: number } }>(read).layout.revision, node },
    });
    const { run } = await submitNodeRun(deployment.backend.store, {
      projectId: 'p1',
      canvasId: 'c1',
      nodeId: 'public',
      idempotencyKey: null,
      triggeredBy: { kind: 'system', name: 'test' },
    });
    const done = await waitFor(
      async () =>
        structured<RunRecord>(
          await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: run.run_id } }),
        ),
      (record) => record.status === 'succeeded',
    );
    for (const output of done.outputs)
      expect(output.url).toMatch(
        new RegExp(`^https://canvas\\.example/base/assets/${output.asset_id}\\?exp=\\d+&sig=[A-Za-z0-9_-]+$`),
      );
  });
});
