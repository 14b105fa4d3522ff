import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, ExportView, IssuedToken, PUBLISHED_TOOL_NAMES } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { connectClient, deploy, structured, toolError, type McpDeployment } from '../support/mcp.js';
import { api } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { IDP } from '../backend/world.js';

/**
 * Tool sets through the official SDK client, in-process and through a gateway, on both stores: a token lists exactly
 * the six unless its owner enabled sets; with `exports` and `layout` enabled it lists their tools, narrows them with
 * X-MCP-Toolsets, and an agent exports a board and reads the file back. A set the token was not given is refused by
 * name; an unknown one is named too.
 */

const SETS_TOOLS = ['export_board', 'get_export', 'tidy_canvas'];

describe.each(STORE_TARGETS)('tool sets: $name', (target) => {
  describe.skipIf(!target.available).each(['in-process', 'gateway'] as const)('%s', (mode) => {
    let deployment: McpDeployment;
    let withSets: string;
    const clients: Client[] = [];
    const connect = async (token: string, headers: Record<string, string> = {}) => {
      const client = await connectClient(deployment.mcpUrl, { Authorization: `Bearer ${token}`, ...headers });
      clients.push(client);
      return client;
    };

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { store } = deployment.backend;
      await store.writes.createNode(
        { projectId: 'p1', canvasId: 'c1', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: {
            title: 'Cold open',
            frames: [
              { id: 'a', imageUrl: null, durationMs: 1000, action: 'Fog.' },
              { id: 'b', imageUrl: null, durationMs: 2000, dialogue: 'Who is there?' },
            ],
          },
        }),
      );
      withSets = (
        await store.tokens.createToken({
          name: 'agent with sets',
          kind: 'agent',
          role: 'editor',
          projects: ['p1'],
          workspaces: [],
          actor: null,
          expiresAt: null,
          toolSets: ['exports', 'layout'],
        })
      ).secret;
    }, 60_000);
    afterAll(async () => {
      for (const client of clients) await client.close();
      await deployment?.close();
    });

    it('lists exactly the six for a token without tool sets, and refuses a set it was not given by name', async () => {
      const plain = await connect(deployment.world.tokens.editor.secret);
      expect((await plain.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...PUBLISHED_TOOL_NAMES].sort());
      const asking = await connect(deployment.world.tokens.editor.secret, { 'X-MCP-Toolsets': 'exports' });
      await expect(asking.listTools()).rejects.toThrow(/tool set "exports" is not enabled for this token/);
      const call = await plain.callTool({ name: 'export_board', arguments: {} }).catch((error: Error) => error);
      expect(String(call)).toMatch(/Unknown tool: export_board/);
    });

    it('lists the enabled sets’ tools, narrowed by X-MCP-Toolsets, and names a set that does not exist', async () => {
      const all = await connect(withSets);
      expect((await all.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
        [...PUBLISHED_TOOL_NAMES, ...SETS_TOOLS].sort(),
      );
      const narrowed = await connect(withSets, { 'X-MCP-Toolsets': 'exports' });
      expect((await narrowed.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
        [...PUBLISHED_TOOL_NAMES, 'export_board', 'get_export'].sort(),
      );
      const runs = await connect(withSets, { 'X-MCP-Toolsets': 'exports, runs' });
      await expect(runs.listTools()).rejects.toThrow(/tool set "runs" is not enabled/);
      const review = await connect(withSets, { 'X-MCP-Toolsets': 'review' });
      await expect(review.listTools()).rejects.toThrow(/tool set "review" is not enabled for this token/);
      const unknown = await connect(withSets, { 'X-MCP-Toolsets': 'comments' });
      await expect(unknown.listTools()).rejects.toThrow(/"comments" is not a tool set of this server/);
    });

    it('exports a board for an agent and hands back an absolute download link', async () => {
      const agent = await connect(withSets, { 'X-MCP-Toolsets': 'exports' });
      const started = await agent.callTool({
        name: 'export_board',
        arguments: { project_id: 'p1', canvas_id: 'c1', export: { kind: 'edl', node_id: 'board' } },
      });
      expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
      const job = ExportView.parse(structured(started));
      const done = await waitFor(
        async () =>
          ExportView.parse(
            structured(
              await agent.callTool({
                name: 'get_export',
                arguments: { project_id: 'p1', canvas_id: 'c1', export_id: job.export_id },
              }),
            ),
          ),
        (view) => view.status === 'succeeded',
        30_000,
        100,
      );
      expect(done.file!.url).toMatch(/^https?:\/\//);
      const file = await fetch(done.file!.url);
      expect(await file.text()).toMatch(/^TITLE: Cold open\r\nFCM: NON-DROP FRAME/);

      const wrong = await agent.callTool({
        name: 'export_board',
        arguments: { project_id: 'p1', canvas_id: 'c1', export: { kind: 'pdf_board', node_id: 'nowhere' } },
      });
      expect(toolError(wrong)).toMatchObject({ isError: true, code: 'not_found' });
    });

    it('lets an owner issue a token with tool sets, and nobody else', async () => {
      const backend = deployment.backend;
      await backend.store.projects.addMember('p1', { issuer: IDP, subject: 'olga' }, 'owner');
      const asOwner = await signedInPerson(backend, { issuer: IDP, subject: 'olga' });
      const issued = await api(
        backend.url,
        '/api/v1/tokens',
        asOwner({ method: 'POST', body: { name: 'layout agent', project_id: 'p1', tool_sets: ['layout'] } }),
      );
      expect(issued.status, JSON.stringify(issued.body)).toBe(201);
      const token = IssuedToken.parse(issued.body);
      expect(token.tool_sets).toEqual(['layout']);
      const client = await connect(token.token);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('tidy_canvas');
      const twice = await api(
        backend.url,
        '/api/v1/tokens',
        asOwner({ method: 'POST', body: { name: 'x', project_id: 'p1', tool_sets: ['layout', 'layout'] } }),
      );
      expect(twice.status).toBe(400);
      expect(JSON.stringify(twice.body)).toContain('tool_sets');
    });
  });
});
