import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generate } from 'selfsigned';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorld, type World } from './world.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Serving a team over https (docs/operations.md, "Serving a team"): the server serves TLS itself from a certificate and
 * key given as files; sign-in (its cookie Secure), the change feed and an MCP client all work over it, every answer
 * carries HSTS, and the chat's own agent would reach it the same way. A plain-http public URL that is not loopback is
 * warned about.
 */

describe.each(STORE_TARGETS)('https end to end: $name', (target) => {
  describe.skipIf(!target.available)('with a self-signed certificate', () => {
    let server: TestServer;
    let world: World;
    let agent: Agent;
    let trusting: typeof fetch;

    beforeAll(async () => {
      const pems = await generate([{ name: 'commonName', value: 'canvas.test' }], {
        keyType: 'ec',
        algorithm: 'sha256',
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
      });
      const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-tls-'));
      writeFileSync(join(dir, 'cert.pem'), pems.cert);
      writeFileSync(join(dir, 'key.pem'), pems.private, { mode: 0o600 });
      server = await startTestServer(target, { tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') });
      world = await seedWorld(server.store);
      agent = new Agent({ connect: { ca: pems.cert } });
      trusting = ((input: string | URL, init?: RequestInit) =>
        undiciFetch(input, { ...(init as UndiciRequestInit), dispatcher: agent })) as unknown as typeof fetch;
    });
    afterAll(async () => {
      await server?.close();
      await agent?.close();
    });

    it('listens on https, and every answer asks browsers to keep to https', async () => {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const health = await trusting(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get('strict-transport-security')).toBe('max-age=31536000');
      // Plain http to the same port is no answer a browser would take.
      await expect(fetch(`${server.url.replace('https:', 'http:')}/healthz`)).rejects.toThrow();
    });

    it('signs a person in with a Secure cookie and streams the change feed over https', async () => {
      const link = await server.store.sessions.createLoginLink(
        { issuer: 'https://idp.example', subject: 'carol' },
        { expiresInMs: 60_000 },
      );
      const confirm = await trusting(`${server.url}/auth/login?token=${link}`, { redirect: 'manual' });
      expect(confirm.status).toBe(200);
      const signedIn = await trusting(`${server.url}/auth/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: link }),
      });
      const setCookie = signedIn.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/; Secure/i);
      const cookie = setCookie.split(';', 1)[0]!;
      const feed = await trusting(`${server.url}/api/v2/projects/p1/canvases/c1/events?after=0`, {
        headers: { cookie, accept: 'text/event-stream' },
      });
      expect(feed.status).toBe(200);
      expect(feed.headers.get('content-type')).toContain('text/event-stream');
      const reader = feed.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first.length).toBeGreaterThan(0);
      await reader.cancel();
    });

    it('serves the official MCP client over https', async () => {
      const client = new Client({ name: 'https-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.server.mcpUrl), {
          fetch: trusting,
          requestInit: {
            headers: { Authorization: `Bearer ${world.tokens.editor.secret}`, 'X-Agent-Run-Id': world.chatRuns.edit },
          },
        }),
      );
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toHaveLength(6);
        const read = await client.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } });
        expect(read.isError).toBeFalsy();
      } finally {
        await client.close();
      }
    });
  });
});

describe('a public URL people would cross a network to reach over plain http', () => {
  it('is warned about at start, naming what to do', async () => {
    const server = await startTestServer(STORE_TARGETS[0]!, { publicUrl: 'http://canvas.studio.example' });
    try {
      const warning = server.logs
        .join('')
        .split('\n')
        .find((line) => line.includes('plain http'));
      expect(warning).toContain('--tls-cert');
    } finally {
      await server.close();
    }
  });
});
