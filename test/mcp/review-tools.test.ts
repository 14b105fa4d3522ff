import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CanvasNode,
  IssuedToken,
  ON_BEHALF_OF_HEADER,
  PUBLISHED_TOOL_NAMES,
  ThreadList,
  ThreadView,
} from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { connectClient, deploy, structured, toolError, type McpDeployment } from '../support/mcp.js';
import { api, type ApiRequest } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas } from '../support/tokens.js';
import { IDP } from '../backend/world.js';

/**
 * Agents in review through MCP with the official SDK client, in-process and through a gateway, on both stores. A person
 * starts threads through REST; any agent that may read the canvas reads them as resources (a canvas's open threads, one
 * node's threads); only a token an owner gave the `review` tool set lists and calls reply_to_comment and
 * resolve_comment_thread, whose comments are signed with the token's name. No token approves: the review-states route
 * refuses every one, the review set and an owner's issue notwithstanding, and no tool does it.
 */

const REVIEW_TOOLS = ['reply_to_comment', 'resolve_comment_thread'];
const CANVAS = '/api/v2/projects/p1/canvases/c1';
const OWNER = { issuer: IDP, subject: 'olga' };

const threadsOf = (read: { contents: Array<{ text?: unknown; mimeType?: string }> }) => {
  expect(read.contents[0]!.mimeType).toBe('application/json');
  return ThreadList.parse(JSON.parse(String(read.contents[0]!.text))).threads;
};

describe.each(STORE_TARGETS)('review tools: $name', (target) => {
  describe.skipIf(!target.available).each(['in-process', 'gateway'] as const)('%s', (mode) => {
    let deployment: McpDeployment;
    let asOwner: (request?: ApiRequest) => ApiRequest;
    /** The person's thread on the board, and one on the canvas as a whole. */
    let onBoard: ThreadView;
    let onCanvas: ThreadView;
    let plain: string;
    let reviewer: IssuedToken;
    const clients: Client[] = [];
    const connect = async (token: string, headers: Record<string, string> = {}) => {
      const client = await connectClient(deployment.mcpUrl, { Authorization: `Bearer ${token}`, ...headers });
      clients.push(client);
      return client;
    };
    /** A REST request as the tool server's gateway makes one on behalf of an agent token (agent tokens never reach REST alone). */
    const onBehalfOf = (tokenId: string, request: ApiRequest): ApiRequest => ({
      ...request,
      token: deployment.world.tokens.gateway.secret,
      headers: { ...request.headers, [ON_BEHALF_OF_HEADER]: tokenId },
    });

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { backend } = deployment;
      await backend.store.writes.createNode(
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
      await backend.store.projects.addMember('p1', OWNER, 'owner');
      asOwner = await signedInPerson(backend, OWNER);
      const started = await api(
        backend.url,
        `${CANVAS}/threads`,
        asOwner({ method: 'POST', body: { node_id: 'board', shot_id: 'b', body: 'Shot 2 reads too dark: lift it?' } }),
      );
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      onBoard = ThreadView.parse(started.body);
      const general = await api(
        backend.url,
        `${CANVAS}/threads`,
        asOwner({ method: 'POST', body: { body: 'Overall pacing is good.' } }),
      );
      expect(general.status, JSON.stringify(general.body)).toBe(201);
      onCanvas = ThreadView.parse(general.body);

      plain = (await agentOnCanvas(backend.store, { projectId: 'p1', canvasId: 'c1', name: 'plain agent' })).secret;
      const issued = await api(
        backend.url,
        '/api/v1/tokens',
        asOwner({ method: 'POST', body: { name: 'review agent', project_id: 'p1', tool_sets: ['review'] } }),
      );
      expect(issued.status, JSON.stringify(issued.body)).toBe(201);
      reviewer = IssuedToken.parse(issued.body);
      expect(reviewer.tool_sets).toEqual(['review']);
    }, 60_000);
    afterAll(async () => {
      for (const client of clients) await client.close();
      await deployment?.close();
    });

    it('keeps the six for an agent without the review set, which reads threads but may not answer them', async () => {
      const agent = await connect(plain);
      expect((await agent.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...PUBLISHED_TOOL_NAMES].sort());
      const call = await agent
        .callTool({
          name: 'reply_to_comment',
          arguments: { project_id: 'p1', canvas_id: 'c1', thread_id: onBoard.thread_id, body: 'On it.' },
        })
        .catch((error: Error) => error);
      expect(String(call)).toMatch(/Unknown tool: reply_to_comment: it is in the tool set "review"/);
      expect(String(call)).toMatch(/not enabled for this token; a project owner enables it/);
      const asking = await connect(plain, { 'X-MCP-Toolsets': 'review' });
      await expect(asking.listTools()).rejects.toThrow(/tool set "review" is not enabled for this token/);

      // Reading needs no tool set: any agent that may read the canvas reads its threads.
      const open = threadsOf(await agent.readResource({ uri: 'canvas://p1/c1/threads' }));
      expect(open.map((thread) => thread.thread_id).sort()).toEqual([onBoard.thread_id, onCanvas.thread_id].sort());
      // A viewer reads them too; a token of another project does not.
      const viewer = await connect(deployment.world.tokens.viewer.secret);
      const seen = threadsOf(await viewer.readResource({ uri: 'canvas://p1/c1/nodes/board/threads' }));
      expect(seen.map((thread) => thread.thread_id)).toEqual([onBoard.thread_id]);
      const stranger = await connect(deployment.world.tokens.otherProject.secret);
      await expect(stranger.readResource({ uri: 'canvas://p1/c1/threads' })).rejects.toThrow(
        /not permitted on project p1/,
      );
    });

    it('lists the review tools to a token an owner gave the set, all its sets or narrowed to review', async () => {
      for (const headers of [{}, { 'X-MCP-Toolsets': 'review' }] as Array<Record<string, string>>) {
        const agent = await connect(reviewer.token, headers);
        const names = (await agent.listTools()).tools.map((tool) => tool.name);
        expect(names.sort()).toEqual([...PUBLISHED_TOOL_NAMES, ...REVIEW_TOOLS].sort());
        // Agents never approve: no tool sets a review state.
        expect(names.filter((name) => /approv|review_state/.test(name))).toEqual([]);
      }
      const templates = (await (await connect(reviewer.token)).listResourceTemplates()).resourceTemplates;
      expect(templates.map((template) => template.uriTemplate)).toEqual(
        expect.arrayContaining([
          'canvas://{project_id}/{canvas_id}/threads{?status}',
          'canvas://{project_id}/{canvas_id}/nodes/{node_id}/threads',
        ]),
      );
    });

    it('reads the threads, replies as the agent and resolves; the open threads no longer list it', async () => {
      const agent = await connect(reviewer.token, { 'X-MCP-Toolsets': 'review' });
      const open = threadsOf(await agent.readResource({ uri: 'canvas://p1/c1/threads' }));
      const mine = open.find((thread) => thread.thread_id === onBoard.thread_id);
      expect(mine).toMatchObject({ node_id: 'board', shot_id: 'b', status: 'open', node_label: 'Cold open, shot 2' });
      expect(mine!.comments[0]).toMatchObject({
        body: 'Shot 2 reads too dark: lift it?',
        author: { kind: 'person', subject: 'olga', issuer: IDP },
      });
      const onNode = threadsOf(await agent.readResource({ uri: 'canvas://p1/c1/nodes/board/threads' }));
      expect(onNode.map((thread) => thread.thread_id)).toEqual([onBoard.thread_id]);

      const replied = await agent.callTool({
        name: 'reply_to_comment',
        arguments: {
          project_id: 'p1',
          canvas_id: 'c1',
          thread_id: onBoard.thread_id,
          body: '@olga lifted the exposure of shot 2.',
        },
      });
      expect(replied.isError, JSON.stringify(replied.content)).toBeFalsy();
      const afterReply = ThreadView.parse(structured(replied));
      expect(afterReply.comments).toHaveLength(2);
      expect(afterReply.comments[1]).toMatchObject({
        author: { kind: 'agent', name: 'review agent', issuer: null, subject: null },
        body: '@olga lifted the exposure of shot 2.',
        mentions: ['olga'],
      });

      const resolved = await agent.callTool({
        name: 'resolve_comment_thread',
        arguments: { project_id: 'p1', canvas_id: 'c1', thread_id: onBoard.thread_id },
      });
      expect(resolved.isError, JSON.stringify(resolved.content)).toBeFalsy();
      expect(ThreadView.parse(structured(resolved))).toMatchObject({ status: 'resolved', resolved_by: 'review agent' });

      const stillOpen = threadsOf(await agent.readResource({ uri: 'canvas://p1/c1/threads' }));
      expect(stillOpen.map((thread) => thread.thread_id)).toEqual([onCanvas.thread_id]);
      const done = threadsOf(await agent.readResource({ uri: 'canvas://p1/c1/threads?status=resolved' }));
      expect(done.map((thread) => thread.thread_id)).toEqual([onBoard.thread_id]);
      const everything = threadsOf(await agent.readResource({ uri: 'canvas://p1/c1/threads?status=all' }));
      expect(everything).toHaveLength(2);
      // One node's threads are all of them, resolved ones included, with the agent's reply.
      const node = threadsOf(await agent.readResource({ uri: 'canvas://p1/c1/nodes/board/threads' }));
      expect(node).toHaveLength(1);
      expect(node[0]).toMatchObject({ status: 'resolved', comments: [{}, { author: { kind: 'agent' } }] });

      // The person sees the agent's reply and the resolution through REST.
      const seen = await api(deployment.backend.url, `${CANVAS}/threads/${onBoard.thread_id}`, asOwner());
      expect(seen.status).toBe(200);
      expect(ThreadView.parse(seen.body)).toMatchObject({ status: 'resolved', resolved_by: 'review agent' });

      // Reopening works the same way; a thread that is not there is not_found; a bad status is refused.
      const reopened = await agent.callTool({
        name: 'resolve_comment_thread',
        arguments: { project_id: 'p1', canvas_id: 'c1', thread_id: onBoard.thread_id, status: 'open' },
      });
      expect(ThreadView.parse(structured(reopened)).status).toBe('open');
      const missing = await agent.callTool({
        name: 'reply_to_comment',
        arguments: { project_id: 'p1', canvas_id: 'c1', thread_id: 'thread_nowhere', body: 'Hello?' },
      });
      expect(toolError(missing)).toMatchObject({ isError: true, code: 'not_found' });
      const empty = await agent.callTool({
        name: 'reply_to_comment',
        arguments: { project_id: 'p1', canvas_id: 'c1', thread_id: onBoard.thread_id, body: '   ' },
      });
      expect(toolError(empty)).toMatchObject({ isError: true, code: 'invalid_arguments' });
      await expect(agent.readResource({ uri: 'canvas://p1/c1/threads?status=someday' })).rejects.toThrow(
        /status in canvas:\/\/p1\/c1\/threads\?status=someday is one of all, open, resolved/,
      );
      // Back to resolved, as the rest of the world left it.
      await agent.callTool({
        name: 'resolve_comment_thread',
        arguments: { project_id: 'p1', canvas_id: 'c1', thread_id: onBoard.thread_id },
      });
    });

    it('refuses an agent token on REST without the review set, and every token at review states', async () => {
      const { backend, world } = deployment;
      const url = backend.url;
      const replyPath = `${CANVAS}/threads/${onCanvas.thread_id}/comments`;
      // An agent token alone never reaches REST; through the gateway, on behalf of one without the set, it is 403.
      const alone = await api(url, replyPath, {
        method: 'POST',
        token: world.tokens.editor.secret,
        body: { body: 'Hi' },
      });
      expect(alone.status).toBe(401);
      const refused = await api(
        url,
        replyPath,
        onBehalfOf(world.tokens.editor.id, { method: 'POST', body: { body: 'Hi' } }),
      );
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).toMatch(/review tool set/);
      // With the set, the same REST reply is the agent's.
      const allowed = await api(
        url,
        replyPath,
        onBehalfOf(reviewer.token_id, { method: 'POST', body: { body: 'Agreed.' } }),
      );
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
      expect(ThreadView.parse(allowed.body).comments.at(-1)!.author).toMatchObject({
        kind: 'agent',
        name: 'review agent',
      });
      // Agents never start threads either.
      const start = await api(
        url,
        `${CANVAS}/threads`,
        onBehalfOf(reviewer.token_id, { method: 'POST', body: { node_id: 'board', body: 'New point.' } }),
      );
      expect(start.status).toBe(403);

      // Agents never approve: the token an owner issued, with the review set, is refused; the owner, signed in, is not.
      const approve = { method: 'PUT', body: { node_id: 'board', state: 'approved' } };
      const byAgent = await api(url, `${CANVAS}/review-states`, onBehalfOf(reviewer.token_id, approve));
      expect(byAgent.status).toBe(403);
      expect(JSON.stringify(byAgent.body)).toMatch(/Only a signed-in person/);
      const byBackendToken = await api(url, `${CANVAS}/review-states`, {
        ...approve,
        token: world.tokens.backendKind.secret,
      });
      expect(byBackendToken.status).toBe(403);
      const seen = (await deployment.backend.store.layout.readCanvas('p1', 'c1'))!.revision;
      const byOwner = await api(
        url,
        `${CANVAS}/review-states`,
        asOwner({ ...approve, body: { ...approve.body, base_revision: seen } }),
      );
      expect(byOwner.status, JSON.stringify(byOwner.body)).toBe(200);
    });
  });
});
