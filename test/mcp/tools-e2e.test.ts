import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_TOOL_NAMES, SNAPSHOT_CONTRACT_VERSION } from '../../src/contract/index.js';
import { aliceHeaders, type World } from '../backend/world.js';
import { MODES, connectClient, deploy, structured, toolError, type McpDeployment } from '../support/mcp.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { STORE_TARGETS } from '../support/stores.js';

/** The six tools end to end through the official MCP SDK client, in-process and as a gateway. */

const cases = MODES.flatMap((mode) =>
  STORE_TARGETS.map((target) => ({ mode, target, name: `${mode} on ${target.name}` })),
);
const ids = { project_id: 'p1', canvas_id: 'c1' };

function text(id: string) {
  return {
    id,
    type: 'textAnnotationNode',
    position: { x: 10, y: 20 },
    data: { content: `text of ${id}`, displayName: id },
  };
}

describe.each(cases)('MCP tools: $name', ({ mode, target }) => {
  describe.skipIf(!target.available)('with the official SDK client', () => {
    let deployment: McpDeployment;
    let world: World;
    let agent: Client;

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      world = deployment.world;
      agent = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${world.tokens.editor.secret}`,
        'X-Agent-Run-Id': world.chatRuns.edit,
      });
    });
    afterAll(async () => {
      await agent?.close();
      await deployment?.close();
    });

    async function layoutRevision(client: Client = agent): Promise<number> {
      const read = await client.callTool({ name: 'get_canvas', arguments: ids });
      return structured<{ layout: { revision: number } }>(read).layout.revision;
    }

    it('lists exactly the six published tools, each fully described', async () => {
      const { tools } = await agent.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(PUBLISHED_TOOL_NAMES);
      for (const tool of tools) {
        expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        expect(tool.title).toEqual(expect.any(String));
        expect(tool.description!.length).toBeGreaterThan(80);
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
        // The title once, at the top: the icons took the bytes a second copy in annotations cost.
        expect(Object.keys(tool.annotations ?? {}).sort()).toEqual([
          'destructiveHint',
          'idempotentHint',
          'openWorldHint',
          'readOnlyHint',
        ]);
        expect(tool.icons?.[0]?.src).toMatch(/\/mcp\/i\/(read|write|run)\.svg$/);
      }
      const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
      expect(annotations.get_canvas).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(annotations.list_zone_skills).toMatchObject({ readOnlyHint: true });
      expect(annotations.get_canvas_node_run).toMatchObject({ readOnlyHint: true });
      expect(annotations.delete_canvas_node).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        openWorldHint: false,
      });
      expect(annotations.cancel_canvas_node_run).toMatchObject({ idempotentHint: true });
      const createDescription = tools.find((tool) => tool.name === 'create_canvas_node')!.description!;
      for (const lesson of [
        'layout.revision',
        'base_revision',
        'revision_conflict',
        'textAnnotationNode',
        'data.content',
        'data.displayName',
        'list_zone_skills',
      ]) {
        expect(createDescription).toContain(lesson);
      }
    });

    it('list_zone_skills answers the global catalog', async () => {
      const result = await agent.callTool({ name: 'list_zone_skills', arguments: {} });
      expect(result.isError).toBeFalsy();
      const { skills } = structured<{ skills: Array<{ skill_id: string; skill_schema_version: string }> }>(result);
      expect(skills).toHaveLength(8);
      expect(skills.every((skill) => skill.skill_schema_version === 'skill.v1')).toBe(true);
    });

    it('get_canvas answers the snapshot as JSON text and as structuredContent', async () => {
      const result = await agent.callTool({ name: 'get_canvas', arguments: ids });
      expect(result.isError).toBeFalsy();
      const content = result.content as Array<{ type: string; text: string }>;
      expect(content).toHaveLength(1);
      expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
      expect(result.structuredContent).toMatchObject({
        snapshot_version: SNAPSHOT_CONTRACT_VERSION,
        layout: { revision: expect.any(Number) },
        node_states: {},
      });
    });

    it('create_canvas_node adds a node at base_revision and answers the save receipt', async () => {
      const base = await layoutRevision();
      const result = await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: base, node: text('mcp-1'), client_save_id: 'mcp-save-1' },
      });
      expect(result.isError).toBeFalsy();
      expect(structured(result)).toMatchObject({
        node_id: 'mcp-1',
        revision: base + 1,
        client_save_id: 'mcp-save-1',
        replayed: false,
      });
      const replay = await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: base, node: text('mcp-1'), client_save_id: 'mcp-save-1' },
      });
      expect(structured(replay)).toMatchObject({ revision: base + 1, replayed: true });
      const read = await agent.callTool({ name: 'get_canvas', arguments: ids });
      const nodes = structured<{ layout: { nodes: Array<{ id: string }> } }>(read).layout.nodes;
      expect(nodes.map((node) => node.id)).toContain('mcp-1');
    });

    it('a save receipt is replayed only to its presenter: another token with the same client_save_id gets the usual conflict, or its own write', async () => {
      const base = await layoutRevision();
      const call = { ...ids, base_revision: base, node: text('mcp-scoped'), client_save_id: 'mcp-save-scoped' };
      expect(structured(await agent.callTool({ name: 'create_canvas_node', arguments: call }))).toMatchObject({
        revision: base + 1,
        replayed: false,
      });
      const other = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${world.tokens.workspaceEditor.secret}`,
        'X-Agent-Run-Id': world.chatRuns.workspaceEditor,
      });
      try {
        // The same call from another token does not learn the first one's receipt: its base_revision is stale.
        expect(toolError(await other.callTool({ name: 'create_canvas_node', arguments: call }))).toMatchObject({
          code: 'revision_conflict',
        });
        const own = await other.callTool({
          name: 'create_canvas_node',
          arguments: { ...call, base_revision: base + 1, node: text('mcp-scoped-2') },
        });
        expect(structured(own)).toMatchObject({
          revision: base + 2,
          client_save_id: 'mcp-save-scoped',
          replayed: false,
        });
      } finally {
        await other.close();
      }
      // The first token's retry still replays its own receipt.
      expect(structured(await agent.callTool({ name: 'create_canvas_node', arguments: call }))).toMatchObject({
        revision: base + 1,
        replayed: true,
      });
    });

    it('a stale base_revision is an isError result with revision_conflict and current_revision', async () => {
      const base = await layoutRevision();
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: base, node: text('mcp-2') },
      });
      const result = await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: base, node: text('mcp-3') },
      });
      const error = toolError(result);
      expect(error).toMatchObject({
        isError: true,
        code: 'revision_conflict',
        retryable: true,
        details: { current_revision: base + 1 },
      });
      expect(error.text).not.toContain('\n');
      expect(error.text).toContain('get_canvas');
    });

    it('invalid arguments are refused before forwarding, naming every offending field', async () => {
      const before = await layoutRevision();
      const result = await agent.callTool({
        name: 'create_canvas_node',
        arguments: {
          ...ids,
          base_revision: -1,
          node: {
            id: 'bad/id',
            type: 'textAnnotationNode',
            position: { x: 0, y: 0, z: 1 },
            data: { content: 'x', colour: 'red' },
          },
          extra: true,
        },
      });
      const error = toolError(result);
      expect(error).toMatchObject({ isError: true, code: 'invalid_arguments', retryable: false });
      const paths = (error.details.issues as Array<{ path: string }>).map((issue) => issue.path).sort();
      expect(paths).toEqual(['(root)', 'base_revision', 'node.data', 'node.id', 'node.position']);
      expect(await layoutRevision()).toBe(before);
    });

    it('a write without X-Agent-Run-Id is refused: a bearer token alone gives no edit rights', async () => {
      const bare = await connectClient(deployment.mcpUrl, { Authorization: `Bearer ${world.tokens.editor.secret}` });
      try {
        const result = await bare.callTool({
          name: 'create_canvas_node',
          arguments: { ...ids, base_revision: await layoutRevision(bare), node: text('no-auth') },
        });
        expect(toolError(result)).toMatchObject({ isError: true, code: 'edit_not_authorized' });
      } finally {
        await bare.close();
      }
    });

    it('refuses a project outside the token scope with an isError forbidden', async () => {
      const result = await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p2', canvas_id: 'c2' } });
      expect(toolError(result)).toMatchObject({ isError: true, code: 'forbidden' });
    });

    it('forwards the delegated identity headers as received', async () => {
      const alice = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${world.tokens.alice.secret}`,
        'X-Agent-Run-Id': world.chatRuns.alice,
        'X-Service-Actor-Issuer': aliceHeaders()['x-service-actor-issuer']!,
        'X-Service-Actor-Subject': 'alice',
      });
      const withoutHeaders = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${world.tokens.alice.secret}`,
      });
      try {
        const created = await alice.callTool({
          name: 'create_canvas_node',
          arguments: { ...ids, base_revision: await layoutRevision(alice), node: text('by-alice') },
        });
        expect(created.isError).toBeFalsy();
        const refused = await withoutHeaders.callTool({ name: 'get_canvas', arguments: ids });
        expect(toolError(refused)).toMatchObject({ code: 'forbidden' });
        expect(toolError(refused).message).toContain('X-Service-Actor-Subject');
      } finally {
        await alice.close();
        await withoutHeaders.close();
      }
    });

    it('delete_canvas_node removes the node and its connected edges', async () => {
      let base = await layoutRevision();
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: base++, node: text('del-a') },
      });
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: base++, node: text('del-b') },
      });
      // The published tools create no edges: a person's tooling does, through the store as an administrator would.
      await deployment.backend.store.writes.createEdge(
        { projectId: 'p1', canvasId: 'c1', baseRevision: base++, clientSaveId: null, authorization: SYSTEM_WRITE },
        { id: 'del-edge', source: 'del-a', target: 'del-b' },
      );
      const result = await agent.callTool({
        name: 'delete_canvas_node',
        arguments: { ...ids, base_revision: base, node_id: 'del-a' },
      });
      expect(structured(result)).toMatchObject({
        node_id: 'del-a',
        deleted_edge_ids: ['del-edge'],
        revision: base + 1,
      });
      const missing = await agent.callTool({
        name: 'delete_canvas_node',
        arguments: { ...ids, base_revision: base + 1, node_id: 'del-a' },
      });
      expect(toolError(missing)).toMatchObject({ code: 'not_found' });
    });

    it('get_canvas_node_run and cancel_canvas_node_run follow one run by the same run_id', async () => {
      const node = {
        id: 'run-img',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'owl', size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
      };
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: await layoutRevision(), node },
      });
      const submitted = await submitNodeRun(deployment.backend.store, {
        projectId: 'p1',
        canvasId: 'c1',
        nodeId: 'run-img',
        idempotencyKey: null,
        triggeredBy: { kind: 'system', name: 'test' },
      });
      const runId = submitted.run.run_id;

      const read = await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: runId } });
      expect(structured(read)).toMatchObject({ run_id: runId, node_id: 'run-img', status: 'queued' });
      const cancelled = await agent.callTool({ name: 'cancel_canvas_node_run', arguments: { ...ids, run_id: runId } });
      expect(structured(cancelled)).toMatchObject({ run_id: runId, status: 'cancel_requested' });
      const after = await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: runId } });
      expect(structured(after)).toMatchObject({ status: 'cancelled' });

      const otherCanvas = await agent.callTool({
        name: 'get_canvas_node_run',
        arguments: { project_id: 'p1', canvas_id: 'c-other', run_id: runId },
      });
      expect(toolError(otherCanvas)).toMatchObject({ code: 'not_found' });
      const chatRunId = await agent.callTool({
        name: 'cancel_canvas_node_run',
        arguments: { ...ids, run_id: world.chatRuns.edit },
      });
      expect(toolError(chatRunId)).toMatchObject({ code: 'not_found' });
    });

    it('an unknown tool is a JSON-RPC error -32602, and so is a hidden tool while hidden', async () => {
      for (const name of ['no_such_tool', 'submit_canvas_node_run']) {
        const error = await agent.callTool({ name, arguments: {} }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(-32602);
      }
    });
  });
});

describe.each(MODES)('hidden tools enabled by flag: %s', (mode) => {
  let deployment: McpDeployment;
  let world: World;
  beforeAll(async () => {
    deployment = await deploy(mode, STORE_TARGETS[0]!, { enableHiddenTools: true });
    world = deployment.world;
  });
  afterAll(async () => deployment?.close());

  it('lists and runs submit_canvas_node_run only when --enable-hidden-tools is set', async () => {
    const client = await connectClient(deployment.mcpUrl, {
      Authorization: `Bearer ${world.tokens.editor.secret}`,
      'X-Agent-Run-Id': world.chatRuns.edit,
    });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('submit_canvas_node_run');
      const revision = structured<{ layout: { revision: number } }>(
        await client.callTool({ name: 'get_canvas', arguments: ids }),
      ).layout.revision;
      const node = {
        id: 'voice',
        type: 'audioNode',
        position: { x: 0, y: 0 },
        data: { audioUrl: null, text: 'hello' },
      };
      await client.callTool({ name: 'create_canvas_node', arguments: { ...ids, base_revision: revision, node } });
      const first = await client.callTool({
        name: 'submit_canvas_node_run',
        arguments: { ...ids, node_id: 'voice', idempotency_key: 'once' },
      });
      const second = await client.callTool({
        name: 'submit_canvas_node_run',
        arguments: { ...ids, node_id: 'voice', idempotency_key: 'once' },
      });
      expect(structured(first)).toMatchObject({ operation: 'speech_generation', status: 'queued' });
      expect(structured<{ run_id: string }>(second).run_id).toBe(structured<{ run_id: string }>(first).run_id);
    } finally {
      await client.close();
    }
  });
});
