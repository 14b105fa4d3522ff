import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, toolError } from '../support/mcp.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Every API request and tool call logs its outcome (status, error code when it failed, duration, request id, token id,
 * chat run id), and a failed tool call never reads like a success.
 */

const CANVAS = '/api/v2/projects/film/canvases/board';
const node = {
  id: 'n1',
  type: 'textAnnotationNode',
  position: { x: 0, y: 0 },
  data: { content: 'Hello', displayName: 'Greeting' },
};

function logLines(server: TestServer): Array<Record<string, unknown>> {
  return server.logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('request outcome logs', () => {
  let server: TestServer;
  let backend: { tokenId: string; secret: string };
  let agent: { tokenId: string; secret: string };
  let backendRun: string;
  let agentRun: string;

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!);
    const { projects, tokens, chatRuns } = server.store;
    await projects.createWorkspace('studio');
    await projects.createProject('film', 'studio');
    await projects.createCanvas('film', 'board', false);
    backend = await tokens.createToken({
      name: 'rest',
      kind: 'backend',
      role: 'editor',
      projects: ['film'],
      workspaces: [],
      actor: null,
      expiresAt: null,
    });
    agent = await tokens.createToken({
      name: 'agent',
      kind: 'agent',
      role: 'editor',
      projects: ['film'],
      workspaces: [],
      actor: null,
      expiresAt: null,
    });
    backendRun = await chatRuns.createChatRun({
      projectId: 'film',
      canvasId: 'board',
      actor: null,
      tokenId: backend.tokenId,
      canEdit: true,
      expiresAt: null,
    });
    agentRun = await chatRuns.createChatRun({
      projectId: 'film',
      canvasId: 'board',
      actor: null,
      tokenId: agent.tokenId,
      canEdit: true,
      expiresAt: null,
    });
  });
  afterAll(async () => server?.close());

  it('logs a failed REST request with its route, status, error code, duration, request id, token id and chat run id', async () => {
    const response = await api(server.url, `${CANVAS}/nodes`, {
      method: 'POST',
      token: backend.secret,
      headers: { 'x-agent-run-id': backendRun, 'x-request-id': 'req-rest-conflict' },
      body: { node, base_revision: 5 },
    });
    expect(response.status).toBe(409);
    const line = logLines(server).find((entry) => entry.request_id === 'req-rest-conflict');
    expect(line).toMatchObject({
      msg: 'request',
      method: 'POST',
      route: '/api/v2/projects/:project_id/canvases/:canvas_id/nodes',
      status: 409,
      error_code: 'revision_conflict',
      token_id: backend.tokenId,
      agent_run_id: backendRun,
      duration_ms: expect.any(Number),
    });
  });

  it('logs a successful REST request without an error code', async () => {
    const response = await api(server.url, `${CANVAS}/nodes`, {
      method: 'POST',
      token: backend.secret,
      headers: { 'x-agent-run-id': backendRun, 'x-request-id': 'req-rest-created' },
      body: { node, base_revision: 0 },
    });
    expect(response.status).toBe(201);
    const line = logLines(server).find((entry) => entry.request_id === 'req-rest-created');
    expect(line).toMatchObject({ msg: 'request', status: 201, token_id: backend.tokenId });
    expect(line).not.toHaveProperty('error_code');
  });

  it('tells a failed tool call from a successful one, with the tool, error code, token id and chat run id', async () => {
    const client = await connectClient(`${server.url}/mcp/`, {
      Authorization: `Bearer ${agent.secret}`,
      'X-Agent-Run-Id': agentRun,
    });
    try {
      expect(
        (await client.callTool({ name: 'get_canvas', arguments: { project_id: 'film', canvas_id: 'board' } })).isError,
      ).toBeFalsy();
      const conflict = await client.callTool({
        name: 'create_canvas_node',
        arguments: { project_id: 'film', canvas_id: 'board', base_revision: 0, node: { ...node, id: 'n2' } },
      });
      expect(toolError(conflict).code).toBe('revision_conflict');
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow();
    } finally {
      await client.close();
    }
    const calls = logLines(server).filter((entry) => entry.msg === 'mcp request' && entry.rpc === 'tools/call');
    const byTool = (tool: string) => calls.find((entry) => entry.tool === tool);
    const common = {
      status: 200,
      token_id: agent.tokenId,
      agent_run_id: agentRun,
      request_id: expect.any(String),
      duration_ms: expect.any(Number),
    };
    expect(byTool('get_canvas')).toMatchObject({ ...common, outcome: 'ok' });
    expect(byTool('get_canvas')).not.toHaveProperty('error_code');
    expect(byTool('create_canvas_node')).toMatchObject({
      ...common,
      outcome: 'tool_error',
      error_code: 'revision_conflict',
    });
    expect(byTool('no_such_tool')).toMatchObject({ ...common, outcome: 'rpc_error', rpc_error: -32602 });
  });

  it('logs a refused MCP request with its status and error code', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer cmcp_not_a_token',
        'content-type': 'application/json',
        accept: 'application/json',
        'x-request-id': 'req-mcp-refused',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(401);
    const line = logLines(server).find((entry) => entry.request_id === 'req-mcp-refused');
    expect(line).toMatchObject({ msg: 'mcp request', status: 401, outcome: 'refused', error_code: 'unauthenticated' });
  });

  it('never logs a token', () => {
    const text = server.logs.join('');
    expect(text).not.toContain(backend.secret);
    expect(text).not.toContain(agent.secret);
  });
});
