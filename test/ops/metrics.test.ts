import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION } from '../../src/contract/index.js';
import { loadServeConfig } from '../../src/config/index.js';
import { connectClient, deploy, toolError } from '../support/mcp.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { rawRequest } from '../support/raw-http.js';
import { openEvents } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/** GET /metrics in Prometheus format, with bounded labels, and who may scrape it. */

const CANVAS = '/api/v2/projects/film/canvases/board';
const node = (id: string) => ({
  id,
  type: 'imageGenNode',
  position: { x: 0, y: 0 },
  data: { prompt: 'a fox', size: '1K', imageUrl: null, aspectRatio: '1:1' },
});

async function scrape(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one series, matched by its name and exact label set, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ? match[2].split(/,(?=[a-z_]+=")/) : [];
    if (present.length === wanted.length && wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return undefined;
}

describe.each(STORE_TARGETS)('GET /metrics: $name', (target) => {
  describe.skipIf(!target.available)('on a loopback server', () => {
    let server: TestServer;
    let backendToken: string;
    let agentToken: string;
    let agentRun: string;
    let backendRun: string;

    beforeAll(async () => {
      server = await startTestServer(target);
      const { projects, tokens, chatRuns } = server.store;
      await projects.createWorkspace('studio');
      await projects.createProject('film', 'studio');
      await projects.createCanvas('film', 'board', false);
      const backend = await tokens.createToken({
        name: 'rest',
        kind: 'backend',
        role: 'editor',
        projects: ['film'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      const agent = await tokens.createToken({
        name: 'agent',
        kind: 'agent',
        role: 'editor',
        projects: ['film'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      backendToken = backend.secret;
      agentToken = agent.secret;
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

    it('serves the default process metrics in the Prometheus text format, without a token', async () => {
      const response = await fetch(`${server.url}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    });

    it('counts REST requests by route template and error code, never by raw path', async () => {
      const read = await api(server.url, `${CANVAS}/snapshot`, {
        token: backendToken,
        headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
      });
      expect(read.status).toBe(200);
      const stale = await api(server.url, `${CANVAS}/nodes`, {
        method: 'POST',
        token: backendToken,
        headers: { 'x-agent-run-id': backendRun },
        body: { node: node('n1'), base_revision: 7 },
      });
      expect(stale.status).toBe(409);
      const unknown = await api(server.url, '/api/v1/nothing-here-9f3a');
      expect(unknown.status).toBe(404);

      const text = await scrape(server.url);
      const template = '/api/v2/projects/:project_id/canvases/:canvas_id';
      expect(
        sample(text, 'canvas_mcp_http_requests_total', {
          method: 'GET',
          route: `${template}/snapshot`,
          status: '200',
          error_code: '',
        }),
      ).toBe(1);
      expect(
        sample(text, 'canvas_mcp_http_requests_total', {
          method: 'POST',
          route: `${template}/nodes`,
          status: '409',
          error_code: 'revision_conflict',
        }),
      ).toBe(1);
      expect(sample(text, 'canvas_mcp_revision_conflicts_total', { via: 'rest' })).toBe(1);
      expect(
        sample(text, 'canvas_mcp_http_request_duration_seconds_count', {
          method: 'GET',
          route: `${template}/snapshot`,
        }),
      ).toBe(1);
      expect(text).toContain('route="(unmatched)"');
      expect(text).not.toContain('nothing-here-9f3a');
      expect(text).not.toContain('/projects/film/');
    });

    it('counts tool calls by tool and result, telling failures from successes', async () => {
      const client = await connectClient(`${server.url}/mcp/`, {
        Authorization: `Bearer ${agentToken}`,
        'X-Agent-Run-Id': agentRun,
      });
      try {
        const read = await client.callTool({
          name: 'get_canvas',
          arguments: { project_id: 'film', canvas_id: 'board' },
        });
        expect(read.isError).toBeFalsy();
        const conflict = await client.callTool({
          name: 'create_canvas_node',
          arguments: { project_id: 'film', canvas_id: 'board', base_revision: 99, node: node('n2') },
        });
        expect(toolError(conflict).code).toBe('revision_conflict');
        await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow();
      } finally {
        await client.close();
      }
      const text = await scrape(server.url);
      expect(sample(text, 'canvas_mcp_tool_calls_total', { tool: 'get_canvas', result: 'ok', error_code: '' })).toBe(1);
      expect(
        sample(text, 'canvas_mcp_tool_calls_total', {
          tool: 'create_canvas_node',
          result: 'tool_error',
          error_code: 'revision_conflict',
        }),
      ).toBe(1);
      expect(
        sample(text, 'canvas_mcp_tool_calls_total', { tool: '(unknown)', result: 'rpc_error', error_code: '' }),
      ).toBe(1);
      expect(sample(text, 'canvas_mcp_revision_conflicts_total', { via: 'mcp' })).toBe(1);
      expect(sample(text, 'canvas_mcp_tool_call_duration_seconds_count', { tool: 'get_canvas', result: 'ok' })).toBe(1);
      expect(
        sample(text, 'canvas_mcp_http_requests_total', {
          method: 'POST',
          route: '/mcp',
          status: '200',
          error_code: '',
        }),
      ).toBeGreaterThanOrEqual(3);
    });

    it('reports queued runs by status, operation and provider, the queue depth and the oldest queued age', async () => {
      const revision = (
        (
          await api(server.url, `${CANVAS}/snapshot`, {
            token: backendToken,
            headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
          })
        ).body as { layout: { revision: number } }
      ).layout.revision;
      const created = await api(server.url, `${CANVAS}/nodes`, {
        method: 'POST',
        token: backendToken,
        headers: { 'x-agent-run-id': backendRun },
        body: { node: node('queued'), base_revision: revision },
      });
      expect(created.status).toBe(201);
      const submitted = await api(server.url, `${CANVAS}/nodes/queued/runs`, {
        method: 'POST',
        token: backendToken,
        headers: { 'x-agent-run-id': backendRun },
      });
      expect(submitted.status).toBe(202);

      const text = await waitFor(
        () => scrape(server.url),
        (body) => (sample(body, 'canvas_mcp_run_queue_oldest_age_seconds') ?? 0) > 0,
      );
      expect(
        sample(text, 'canvas_mcp_node_runs', { status: 'queued', operation: 'image_generation', provider: 'local' }),
      ).toBe(1);
      expect(sample(text, 'canvas_mcp_run_queue_depth')).toBe(1);
      expect(sample(text, 'canvas_mcp_store_up')).toBe(1);
    });

    it('reports the change feed subscribers of this process', async () => {
      const feed = await openEvents(`${server.url}${CANVAS}/events`, { authorization: `Bearer ${backendToken}` });
      try {
        expect(feed.status).toBe(200);
        await waitFor(
          () => scrape(server.url),
          (body) => sample(body, 'canvas_mcp_feed_subscribers') === 1,
        );
      } finally {
        feed.close();
      }
      await waitFor(
        () => scrape(server.url),
        (body) => sample(body, 'canvas_mcp_feed_subscribers') === 0,
      );
    });

    it(`reports the database's own load: ${target.name === 'sqlite' ? 'the SQLite writer wait' : 'the PostgreSQL pool'}`, async () => {
      const text = await scrape(server.url);
      if (target.name === 'sqlite') {
        expect(sample(text, 'canvas_mcp_sqlite_writer_wait_seconds_count')).toBeGreaterThan(0);
        expect(text).not.toContain('canvas_mcp_db_pool_connections{');
      } else {
        expect(sample(text, 'canvas_mcp_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
        expect(sample(text, 'canvas_mcp_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
        expect(sample(text, 'canvas_mcp_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
        expect(text).not.toContain('canvas_mcp_sqlite_writer_wait_seconds_count');
      }
    });
  });
});

describe('GET /metrics with a run worker', () => {
  let server: TestServer;
  let backendToken: string;
  let backendRun: string;

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!, { workers: 1, runDurationMs: 50 });
    const { projects, tokens, chatRuns } = server.store;
    await projects.createWorkspace('studio');
    await projects.createProject('film', 'studio');
    await projects.createCanvas('film', 'board', false);
    const backend = await tokens.createToken({
      name: 'rest',
      kind: 'backend',
      role: 'editor',
      projects: ['film'],
      workspaces: [],
      actor: null,
      expiresAt: null,
    });
    backendToken = backend.secret;
    backendRun = await chatRuns.createChatRun({
      projectId: 'film',
      canvasId: 'board',
      actor: null,
      tokenId: backend.tokenId,
      canEdit: true,
      expiresAt: null,
    });
  });
  afterAll(async () => server?.close());

  it('counts a run that succeeded once in canvas_mcp_node_runs_finished_total, by status, operation and provider', async () => {
    const finished = { status: 'succeeded', operation: 'image_generation', provider: 'local' };
    expect(sample(await scrape(server.url), 'canvas_mcp_node_runs_finished_total', finished)).toBeUndefined();

    const created = await api(server.url, `${CANVAS}/nodes`, {
      method: 'POST',
      token: backendToken,
      headers: { 'x-agent-run-id': backendRun },
      body: { node: node('runs'), base_revision: 0 },
    });
    expect(created.status).toBe(201);
    const submitted = await api(server.url, `${CANVAS}/nodes/runs/runs`, {
      method: 'POST',
      token: backendToken,
      headers: { 'x-agent-run-id': backendRun },
    });
    expect(submitted.status).toBe(202);
    const runId = (submitted.body as { run_id: string }).run_id;
    await waitFor(
      async () =>
        ((await api(server.url, `${CANVAS}/runs/${runId}`, { token: backendToken })).body as { status: string }).status,
      (status) => status === 'succeeded',
    );

    // The worker counts the outcome right after recording it: wait for the series to appear, then check its value.
    const text = await waitFor(
      () => scrape(server.url),
      (body) => sample(body, 'canvas_mcp_node_runs_finished_total', finished) !== undefined,
    );
    expect(sample(text, 'canvas_mcp_node_runs_finished_total', finished)).toBe(1);
    expect(sample(text, 'canvas_mcp_node_runs_finished_total', { ...finished, status: 'failed' })).toBeUndefined();
  });
});

describe('who may scrape /metrics', () => {
  const target = STORE_TARGETS[0]!;

  it('answers only loopback Host names on a loopback server, as /mcp does: a DNS-rebinding page cannot read it', async () => {
    const server = await startTestServer(target);
    try {
      const { port } = server.server;
      for (const host of ['rebind.evil.example', `rebind.evil.example:${port}`]) {
        const refused = await rawRequest(`http://127.0.0.1:${port}/metrics`, { method: 'GET', headers: { host } });
        expect([host, refused.status]).toEqual([host, 403]);
        expect(refused.text).not.toContain('canvas_mcp_');
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
        expect(
          (await rawRequest(`http://127.0.0.1:${port}/metrics`, { method: 'GET', headers: { host } })).status,
        ).toBe(200);
      }
    } finally {
      await server.close();
    }
  });

  it('is off on a server bound beyond loopback without a --metrics-token', async () => {
    const server = await startTestServer(target, { host: '0.0.0.0' });
    try {
      const response = await api(`http://127.0.0.1:${server.server.port}`, '/metrics');
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({
        error: { code: 'not_found', message: expect.stringContaining('--metrics-token') },
      });
    } finally {
      await server.close();
    }
  });

  it('asks for the --metrics-token as a bearer token when one is set', async () => {
    const metricsToken = 'scrape-0123456789abcdef';
    const server = await startTestServer(target, { host: '0.0.0.0', metricsToken });
    const url = `http://127.0.0.1:${server.server.port}`;
    try {
      expect((await api(url, '/metrics')).status).toBe(401);
      expect((await api(url, '/metrics', { token: 'scrape-wrong-wrong-wrong' })).status).toBe(401);
      const scraped = await api(url, '/metrics', { token: metricsToken });
      expect(scraped.status).toBe(200);
      expect(String(scraped.body)).toContain('canvas_mcp_http_requests_total');
      expect(server.logs.join('')).not.toContain(metricsToken);
    } finally {
      await server.close();
    }
  });

  it('refuses a metrics token shorter than 16 characters at start, without echoing it', () => {
    expect(() => loadServeConfig({ metricsToken: 'short-secret' }, {})).toThrow(
      /--metrics-token \(CANVAS_MCP_METRICS_TOKEN\): must be at least 16 characters$/m,
    );
  });
});

describe('GET /metrics on a gateway', () => {
  it('counts the tool calls it forwards, without the store figures that belong to the backend', async () => {
    const deployment = await deploy('gateway', STORE_TARGETS[0]!);
    try {
      const client = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${deployment.world.tokens.editor.secret}`,
      });
      try {
        expect((await client.callTool({ name: 'list_zone_skills', arguments: {} })).isError).toBeFalsy();
      } finally {
        await client.close();
      }
      const gatewayUrl = new URL(deployment.mcpUrl).origin;
      const text = await scrape(gatewayUrl);
      expect(
        sample(text, 'canvas_mcp_tool_calls_total', { tool: 'list_zone_skills', result: 'ok', error_code: '' }),
      ).toBe(1);
      expect(text).not.toContain('canvas_mcp_run_queue_depth');
    } finally {
      await deployment.close();
    }
  });
});
