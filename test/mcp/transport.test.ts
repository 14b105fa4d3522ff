import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../backend/world.js';
import { MODES, deploy, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/** The Streamable HTTP transport rules, checked with raw HTTP requests. */

const ACCEPT_BOTH = 'application/json, text/event-stream';

interface Post {
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  method?: string;
  path?: string;
}

async function post(baseUrl: string, request: Post) {
  const response = await fetch(`${baseUrl}${request.path ?? ''}`, {
    method: request.method ?? 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      'mcp-protocol-version': '2025-06-18',
      ...request.headers,
    },
    body: request.method && request.method !== 'POST' ? undefined : (request.rawBody ?? JSON.stringify(request.body)),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: json as {
      id?: unknown;
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: Record<string, unknown> };
    },
  };
}

const ping = (id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe.each(MODES)('MCP transport: %s', (mode) => {
  let deployment: McpDeployment;
  let world: World;
  let url: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    deployment = await deploy(mode, STORE_TARGETS[0]!, { allowedOrigins: 'https://app.example' });
    world = deployment.world;
    url = deployment.mcpUrl.replace(/\/$/, '');
    auth = { authorization: `Bearer ${world.tokens.editor.secret}` };
  });
  afterAll(async () => deployment?.close());

  describe('authentication (401 matrix)', () => {
    it.each([
      ['no Authorization header', () => ({})],
      ['"Bearer Bearer <token>"', () => ({ authorization: `Bearer Bearer ${world.tokens.editor.secret}` })],
      ['the Basic scheme', () => ({ authorization: `Basic ${world.tokens.editor.secret}` })],
      ['the Token scheme', () => ({ authorization: `Token ${world.tokens.editor.secret}` })],
      ['a bare token without a scheme', () => ({ authorization: world.tokens.editor.secret })],
      ['a cookie only', () => ({ cookie: `token=${world.tokens.editor.secret}` })],
      ['an unknown token', () => ({ authorization: 'Bearer cmcp_not-a-real-token' })],
      ['a revoked token', () => ({ authorization: `Bearer ${world.tokens.revoked.secret}` })],
      ['an expired token', () => ({ authorization: `Bearer ${world.tokens.expired.secret}` })],
      ['a backend (non tool-server) token', () => ({ authorization: `Bearer ${world.tokens.backendKind.secret}` })],
      ['a gateway credential', () => ({ authorization: `Bearer ${world.tokens.gateway.secret}` })],
    ])('refuses %s with 401 and WWW-Authenticate: Bearer', async (_name, headers) => {
      const response = await post(url, { headers: headers(), body: ping() });
      expect(response.status).toBe(401);
      // A backend is also an OAuth authorization server: its challenge says where to find it (RFC 9728). A gateway
      // issues no tokens of its own.
      expect(response.headers.get('www-authenticate')).toMatch(
        mode === 'in-process'
          ? /^Bearer (error="invalid_token", )?resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp\/", scope="canvas:read canvas:write runs:write"$/
          : /^Bearer$/,
      );
      expect(response.json.error?.data?.code).toBe('unauthenticated');
    });

    it('refuses a token in the query string, even next to a valid header', async () => {
      const response = await post(url, {
        path: `?access_token=${world.tokens.editor.secret}`,
        headers: auth,
        body: ping(),
      });
      expect(response.status).toBe(401);
    });

    it('accepts a valid tool-server token', async () => {
      const response = await post(url, { headers: auth, body: ping(7) });
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    });
  });

  describe('requests', () => {
    it('serves both /mcp and /mcp/ directly, without a redirect', async () => {
      for (const path of ['', '/']) {
        const response = await post(url, { path, headers: auth, body: ping() });
        expect(response.status).toBe(200);
      }
    });

    it('refuses a JSON-RPC batch with 400', async () => {
      const response = await post(url, { headers: auth, body: [ping(1), ping(2)] });
      expect(response.status).toBe(400);
      expect(response.json.error?.code).toBe(-32600);
      expect(response.json.error?.message).toContain('batch');
    });

    it('refuses an unsupported MCP-Protocol-Version with 400 and accepts the supported ones', async () => {
      const refused = await post(url, { headers: { ...auth, 'mcp-protocol-version': '1999-01-01' }, body: ping() });
      expect(refused.status).toBe(400);
      for (const version of ['2025-06-18', '2025-03-26', '2025-11-25']) {
        const accepted = await post(url, { headers: { ...auth, 'mcp-protocol-version': version }, body: ping() });
        expect(accepted.status).toBe(200);
      }
    });

    it('negotiates 2025-06-18 when asked for it, and offers it for an unknown revision', async () => {
      const initialize = (protocolVersion: string) => ({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      const exact = await post(url, { headers: auth, body: initialize('2025-06-18') });
      expect(exact.json.result).toMatchObject({
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'canvas-mcp' },
      });
      expect(exact.headers.get('mcp-session-id')).toBeNull();
      const unknown = await post(url, { headers: auth, body: initialize('2030-01-01') });
      expect(unknown.json.result?.protocolVersion).toBe('2025-06-18');
    });

    it('answers GET and DELETE with 405 and Allow: POST', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await post(url, { method, headers: auth });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
    });

    it('accepts a notification with 202 and no body', async () => {
      const response = await post(url, {
        headers: auth,
        body: { jsonrpc: '2.0', method: 'notifications/initialized' },
      });
      expect(response.status).toBe(202);
      expect(response.text).toBe('');
    });

    it('answers with SSE when the client accepts only text/event-stream, JSON when it accepts JSON', async () => {
      const sse = await post(url, { headers: { ...auth, accept: 'text/event-stream' }, body: ping(3) });
      expect(sse.headers.get('content-type')).toBe('text/event-stream');
      expect(sse.text).toBe('event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{}}\n\n');
      const json = await post(url, { headers: { ...auth, accept: 'application/json' }, body: ping(4) });
      expect(json.headers.get('content-type')).toBe('application/json');
      const refused = await post(url, { headers: { ...auth, accept: 'text/html' }, body: ping() });
      expect(refused.status).toBe(406);
    });

    it('refuses invalid JSON (400 -32700), a non JSON-RPC body (400 -32600), text/plain (415) and an oversized body (413)', async () => {
      expect((await post(url, { headers: auth, rawBody: '{"jsonrpc":' })).json.error?.code).toBe(-32700);
      const notRpc = await post(url, { headers: auth, body: { hello: 'world' } });
      expect([notRpc.status, notRpc.json.error?.code]).toEqual([400, -32600]);
      expect((await post(url, { headers: { ...auth, 'content-type': 'text/plain' }, body: ping() })).status).toBe(415);
      const huge = await post(url, {
        headers: auth,
        body: { ...ping(), params: { pad: 'x'.repeat(5 * 1024 * 1024) } },
      });
      expect(huge.status).toBe(413);
    });

    it('answers an unknown method with JSON-RPC -32601', async () => {
      const response = await post(url, {
        headers: auth,
        body: { jsonrpc: '2.0', id: 9, method: 'sampling/createMessage' },
      });
      expect(response.json.error?.code).toBe(-32601);
    });

    it('answers an unknown tool with JSON-RPC -32602, not an isError result', async () => {
      const response = await post(url, {
        headers: auth,
        body: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'drop_database', arguments: {} } },
      });
      expect(response.json).toEqual({
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32602, message: 'Unknown tool: drop_database' },
      });
    });
  });

  describe('origin and host', () => {
    it('refuses a present Origin outside the allowlist with 403', async () => {
      const response = await post(url, { headers: { ...auth, origin: 'https://evil.example' }, body: ping() });
      expect(response.status).toBe(403);
      expect(response.json.error?.data?.code).toBe('forbidden');
    });

    it('accepts an allowed Origin and answers its CORS preflight', async () => {
      const response = await post(url, { headers: { ...auth, origin: 'https://app.example' }, body: ping() });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    });

    it('refuses a Host that is not loopback while bound to loopback (DNS rebinding)', async () => {
      const { request } = await import('node:http');
      const target = new URL(url);
      const status = await new Promise<number>((resolve, reject) => {
        const outgoing = request(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: 'POST',
            headers: { host: 'attacker.example', ...auth, 'content-type': 'application/json', accept: ACCEPT_BOTH },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(JSON.stringify(ping()));
      });
      expect(status).toBe(403);
    });
  });
});

describe('MCP rate limit', () => {
  let deployment: McpDeployment;
  let world: World;
  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!, { rateLimitPerMinute: 3 });
    world = deployment.world;
  });
  afterAll(async () => deployment?.close());

  it('answers 429 rate_limited with Retry-After once a token spends its budget, per token', async () => {
    const url = deployment.mcpUrl;
    const statuses = [];
    for (let index = 0; index < 4; index += 1) {
      statuses.push(
        await post(url, { headers: { authorization: `Bearer ${world.tokens.editor.secret}` }, body: ping(index) }),
      );
    }
    expect(statuses.map((response) => response.status)).toEqual([200, 200, 200, 429]);
    const limited = statuses[3]!;
    expect(limited.json.error?.data).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const otherToken = await post(url, {
      headers: { authorization: `Bearer ${world.tokens.viewer.secret}` },
      body: ping(),
    });
    expect(otherToken.status).toBe(200);
  });
});
