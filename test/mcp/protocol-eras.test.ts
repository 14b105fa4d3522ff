import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_TOOL_NAMES } from '../../src/contract/index.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import type { World } from '../backend/world.js';
import { CLIENT_FLAVOURS, connectFlavour, flavourName, type ConnectedClient } from '../support/mcp-clients.js';
import { MODES, deploy, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Both protocol eras on one endpoint, with the official clients over real HTTP: v1 (2025-06-18, 2025-11-25) and v2
 * (legacy, auto, pinned to 2026-07-28). Each lists the six tools and calls all six.
 */

const ids = { project_id: 'p1', canvas_id: 'c1' };

const cases = CLIENT_FLAVOURS.flatMap((flavour) =>
  MODES.map((mode) => ({ flavour, mode, name: `${flavourName(flavour)}, ${mode}` })),
);

describe.each(cases)('$name', ({ flavour, mode }) => {
  let deployment: McpDeployment;
  let world: World;
  let connected: ConnectedClient;

  beforeAll(async () => {
    deployment = await deploy(mode, STORE_TARGETS[0]!);
    world = deployment.world;
    connected = await connectFlavour(
      deployment.mcpUrl,
      { Authorization: `Bearer ${world.tokens.editor.secret}`, 'X-Agent-Run-Id': world.chatRuns.edit },
      flavour,
    );
  });
  afterAll(async () => {
    await connected?.client.close();
    await deployment?.close();
  });

  it('connects in the expected era', () => {
    const methods = connected.sent.map((request) => request.method);
    if (flavour.sdk === 'v1') {
      expect(methods[0]).toBe('initialize');
      expect(connected.protocolVersion()).toBe(flavour.protocolVersion);
    } else if (flavour.mode === 'legacy') {
      expect(methods).not.toContain('server/discover');
      expect(methods[0]).toBe('initialize');
    } else {
      // auto and pinned: one server/discover and no initialize handshake at all (no fallback).
      expect(methods).toEqual(['server/discover']);
      expect(connected.protocolVersion()).toBe('2026-07-28');
    }
  });

  it('lists exactly the six published tools, in the same order every time', async () => {
    const first = await connected.client.listTools();
    const second = await connected.client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(PUBLISHED_TOOL_NAMES);
    expect(second.tools).toEqual(first.tools);
  });

  it('calls all six tools', async () => {
    const call = (name: string, args: Record<string, unknown>) => connected.client.callTool({ name, arguments: args });
    const skills = await call('list_zone_skills', {});
    expect(skills.isError).toBeFalsy();
    expect((skills.structuredContent as { skills: unknown[] }).skills).toHaveLength(8);

    const read = await call('get_canvas', ids);
    const revision = (read.structuredContent as { layout: { revision: number } }).layout.revision;
    const node = {
      id: 'era-img',
      type: 'imageGenNode',
      position: { x: 0, y: 0 },
      data: { prompt: 'owl', size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
    };
    const created = await call('create_canvas_node', { ...ids, base_revision: revision, node });
    expect(created.structuredContent).toMatchObject({
      operation: 'create_node',
      node_id: 'era-img',
      revision: revision + 1,
    });

    const { run } = await submitNodeRun(deployment.backend.store, {
      projectId: 'p1',
      canvasId: 'c1',
      nodeId: 'era-img',
      idempotencyKey: null,
      triggeredBy: { kind: 'system', name: 'test' },
    });
    const runRead = await call('get_canvas_node_run', { ...ids, run_id: run.run_id });
    expect(runRead.structuredContent).toMatchObject({ run_id: run.run_id, status: 'queued' });
    const cancelled = await call('cancel_canvas_node_run', { ...ids, run_id: run.run_id });
    expect(cancelled.structuredContent).toMatchObject({ run_id: run.run_id, status: 'cancel_requested' });

    const deleted = await call('delete_canvas_node', { ...ids, base_revision: revision + 1, node_id: 'era-img' });
    expect(deleted.structuredContent).toMatchObject({ operation: 'delete_node', node_id: 'era-img' });
    // A tool error reads the same in both eras: isError with structuredContent.error.
    const stale = await call('delete_canvas_node', { ...ids, base_revision: 0, node_id: 'era-img' });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent).toMatchObject({ error: { code: 'revision_conflict' } });
  });

  it("lists and reads the canvas MCP App, and refuses an unknown resource with the era's code", async () => {
    const { resources } = await connected.client.listResources();
    expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([
      ['ui://canvas-mcp/canvas.html', 'text/html;profile=mcp-app'],
      // The storyboarding skill's manifest (Skills extension; test/mcp/skills.test.ts).
      ['skill://canvas-mcp/storyboarding/SKILL.md', 'text/markdown'],
    ]);
    const { contents } = await connected.client.readResource({ uri: 'ui://canvas-mcp/canvas.html' });
    expect((contents[0] as { text: string }).text).toMatch(/^<!doctype html>/i);
    const missing = await connected.client.readResource({ uri: 'ui://canvas-mcp/nothing.html' }).then(
      () => null,
      (error: { code?: number }) => error.code,
    );
    // On the wire: -32002 before 2026-07-28, -32602 since (with data.uri); the v2 client reports either as its
    // ResourceNotFoundError, code -32602 (the conformance suite checks the 2026-07-28 wire code).
    expect(missing).toBe(flavour.sdk === 'v1' ? -32002 : -32602);
  });
});

describe('2026-07-28 framing, raw HTTP', () => {
  let deployment: McpDeployment;
  let token: string;
  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!);
    token = deployment.world.tokens.editor.secret;
  });
  afterAll(async () => deployment?.close());

  const envelope = (version = '2026-07-28') => ({
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  });
  const getCanvas = (meta: Record<string, unknown> = envelope()) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_canvas', arguments: ids, _meta: meta },
  });
  const modernHeaders = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_canvas' };

  async function post(body: unknown, headers: Record<string, string>, bearer = token, url = deployment.mcpUrl) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${bearer}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      headers: response.headers,
      json: (await response.json()) as {
        id?: unknown;
        result?: Record<string, unknown>;
        error?: { code: number; message: string; data?: Record<string, unknown> };
      },
    };
  }
  const legacyGetCanvas = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_canvas', arguments: ids },
  };
  const legacyHeaders = { 'mcp-protocol-version': '2025-06-18' };

  it('refuses a request whose Mcp-Method header disagrees with the body: 400, HeaderMismatch -32020', async () => {
    const response = await post(getCanvas(), { ...modernHeaders, 'mcp-method': 'tools/list' });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code: -32020 });
    expect(response.json.error?.message).toContain('Mcp-Method');
  });

  it.each([
    ['a missing Mcp-Method', { 'mcp-method': undefined }],
    ['a missing Mcp-Name on tools/call', { 'mcp-name': undefined }],
    ['a missing MCP-Protocol-Version', { 'mcp-protocol-version': undefined }],
    ['an Mcp-Name naming another tool', { 'mcp-name': 'delete_canvas_node' }],
    [
      'a Base64 Mcp-Name naming another tool',
      { 'mcp-name': `=?base64?${Buffer.from('list_zone_skills').toString('base64')}?=` },
    ],
  ])('refuses %s with 400 -32020', async (_name, change) => {
    const headers = Object.fromEntries(
      Object.entries({ ...modernHeaders, ...change }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const response = await post(getCanvas(), headers);
    expect([response.status, response.json.error?.code]).toEqual([400, -32020]);
  });

  it('accepts an Mcp-Name sent in the Base64 sentinel form', async () => {
    const response = await post(getCanvas(), {
      ...modernHeaders,
      'mcp-name': `=?base64?${Buffer.from('get_canvas').toString('base64')}?=`,
    });
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({ resultType: 'complete' });
  });

  it('answers results with resultType, serverInfo in _meta, and cache hints on tools/list', async () => {
    const list = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } },
      { ...modernHeaders, 'mcp-method': 'tools/list', 'mcp-name': '' },
    );
    expect(list.status).toBe(200);
    expect(list.json.result).toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'canvas-mcp' } },
    });
    const call = await post(getCanvas(), modernHeaders);
    expect(call.json.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { layout: { revision: expect.any(Number) } },
    });
  });

  it('server/discover lists the versions served, both eras, with capabilities and cache hints', async () => {
    const response = await post(
      { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: envelope() } },
      { ...modernHeaders, 'mcp-method': 'server/discover' },
    );
    expect(response.json.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      capabilities: { tools: {} },
      ttlMs: expect.any(Number),
      cacheScope: 'public',
    });
  });

  it('refuses an unsupported modern version with -32022 naming the versions served', async () => {
    const response = await post(getCanvas(envelope('2099-01-01')), {
      ...modernHeaders,
      'mcp-protocol-version': '2099-01-01',
    });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({
      code: -32022,
      data: { supported: expect.arrayContaining(['2026-07-28', '2025-06-18']), requested: '2099-01-01' },
    });
    // Like every error answering a request, it carries the request's id.
    expect(response.json).toMatchObject({ id: 1 });
  });

  it('refuses a request with a modern header but no _meta envelope, and one missing clientCapabilities: 400 -32602', async () => {
    const bare = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_canvas', arguments: ids } },
      modernHeaders,
    );
    expect([bare.status, bare.json.error?.code]).toEqual([400, -32602]);
    const { 'io.modelcontextprotocol/clientCapabilities': _dropped, ...partial } = envelope();
    const incomplete = await post(getCanvas(partial), modernHeaders);
    expect([incomplete.status, incomplete.json.error?.code]).toEqual([400, -32602]);
  });

  it('answers initialize and ping, which 2026-07-28 removed, with 404 -32601', async () => {
    for (const method of ['initialize', 'ping']) {
      const response = await post(
        { jsonrpc: '2.0', id: 5, method, params: { _meta: envelope() } },
        { ...modernHeaders, 'mcp-method': method },
      );
      expect([response.status, response.json.error?.code]).toEqual([404, -32601]);
    }
  });

  it('applies the same authentication, with the same answer, in both eras', async () => {
    const modern = await post(getCanvas(), modernHeaders, 'cmcp_not-a-real-token');
    const legacy = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_canvas', arguments: ids } },
      { 'mcp-protocol-version': '2025-06-18' },
      'cmcp_not-a-real-token',
    );
    expect(modern.status).toBe(401);
    expect(modern.json).toEqual(legacy.json);
  });

  it('refuses a foreign Origin the same way in both eras: 403, -32000 forbidden', async () => {
    const origin = { origin: 'https://evil.example' };
    const modern = await post(getCanvas(), { ...modernHeaders, ...origin });
    const legacy = await post(legacyGetCanvas, { ...legacyHeaders, ...origin });
    expect(modern.status).toBe(403);
    expect(modern.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: 'Origin https://evil.example is not allowed.',
        data: { code: 'forbidden', retryable: false },
      },
    });
    expect(modern.headers.get('access-control-allow-origin')).toBeNull();
    expect([legacy.status, legacy.json]).toEqual([modern.status, modern.json]);
  });

  describe('with a rate limit of 2 requests a minute', () => {
    let limited: McpDeployment;
    beforeAll(async () => {
      limited = await deploy('in-process', STORE_TARGETS[0]!, { rateLimitPerMinute: 2 });
    });
    afterAll(async () => limited?.close());

    it('spends one budget per token across both eras, and refuses the same way in both: 429, -32000 rate_limited, Retry-After', async () => {
      const bearer = limited.world.tokens.editor.secret;
      const send = (era: 'modern' | 'legacy') =>
        era === 'modern'
          ? post(getCanvas(), modernHeaders, bearer, limited.mcpUrl)
          : post(legacyGetCanvas, legacyHeaders, bearer, limited.mcpUrl);
      // One request in each era spends the budget of 2.
      expect([(await send('legacy')).status, (await send('modern')).status]).toEqual([200, 200]);
      const modern = await send('modern');
      const legacy = await send('legacy');
      for (const response of [modern, legacy]) {
        expect(response.status).toBe(429);
        expect(response.json).toEqual({
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32000,
            message: 'Too many requests for this token; retry later.',
            data: { code: 'rate_limited', retryable: true, retry_after_ms: expect.any(Number) },
          },
        });
        const retryAfterMs = response.json.error!.data!.retry_after_ms as number;
        expect(retryAfterMs).toBeGreaterThan(0);
        expect(retryAfterMs).toBeLessThanOrEqual(60_000);
        expect(response.headers.get('retry-after')).toBe(String(Math.ceil(retryAfterMs / 1000)));
      }
      // Apart from the time left, which runs down between the two requests, the answers are identical.
      const withoutWait = (json: typeof modern.json) => ({
        ...json,
        error: { ...json.error, data: { ...json.error?.data, retry_after_ms: 0 } },
      });
      expect(withoutWait(legacy.json)).toEqual(withoutWait(modern.json));
      // Another token keeps its own budget, in either era.
      expect((await post(getCanvas(), modernHeaders, limited.world.tokens.viewer.secret, limited.mcpUrl)).status).toBe(
        200,
      );
    });
  });

  it('frames a large body refused on the worker thread in the era it claims', async () => {
    // Above 64 KiB the arguments are checked on a worker thread (src/validation): the answer keeps the modern framing.
    const node = {
      id: 'big',
      type: 'textAnnotationNode',
      position: { x: 0, y: 0 },
      data: { content: 'x'.repeat(70_000), unknownKey: 1 },
    };
    const body = {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'create_canvas_node', arguments: { ...ids, base_revision: 0, node }, _meta: envelope() },
    };
    const response = await post(body, { ...modernHeaders, 'mcp-name': 'create_canvas_node' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      id: 8,
      result: { resultType: 'complete', isError: true, structuredContent: { error: { code: 'invalid_arguments' } } },
    });
    const mismatched = await post(body, { ...modernHeaders, 'mcp-name': 'get_canvas' });
    expect([mismatched.status, mismatched.json.error?.code]).toEqual([400, -32020]);
  });

  it('answers an unknown tool with -32602 in both eras', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'drop_database', arguments: {}, _meta: envelope() },
    };
    const response = await post(body, { ...modernHeaders, 'mcp-name': 'drop_database' });
    expect([response.status, response.json.error]).toEqual([
      200,
      { code: -32602, message: 'Unknown tool: drop_database' },
    ]);
  });
});
