import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServeConfig } from '../../src/config/index.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { createLogger } from '../../src/shared/logger.js';
import { connectClient, toolError } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { seedWorld, type World } from '../backend/world.js';

/**
 * A gateway in front of a backend that answers a snapshot of another contract version, or none, reports a contract
 * error (not retryable), as the spec says, never `internal`.
 */

describe('a gateway reading snapshots from a backend of another contract version', () => {
  let backend: TestServer;
  let world: World;
  let proxy: Server;
  let gateway: RunningServer;
  // What the proxy does to snapshot bodies on their way to the gateway.
  let rewrite: (body: Record<string, unknown>) => Record<string, unknown> = (body) => body;

  beforeAll(async () => {
    backend = await startTestServer(STORE_TARGETS[0]!);
    world = await seedWorld(backend.store);
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length'),
      ) as Record<string, string>;
      const upstream = await fetch(`${backend.url}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      let text = await upstream.text();
      if (new URL(req.url ?? '/', 'http://proxy').pathname.endsWith('/snapshot') && upstream.status === 200)
        text = JSON.stringify(rewrite(JSON.parse(text) as Record<string, unknown>));
      res
        .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        .end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { secret } = await backend.store.tokens.createToken({
      name: 'gw',
      kind: 'gateway',
      role: 'viewer',
      projects: [],
      workspaces: ['w1'],
      actor: null,
      expiresAt: null,
    });
    gateway = await startServer(
      loadServeConfig(
        {
          port: 0,
          rateLimitPerMinute: 0,
          workers: 0,
          backendUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
          backendToken: secret,
        },
        {},
      ),
      { logger: createLogger('silent') },
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => proxy?.close(resolve));
    await backend?.close();
  });

  it.each([
    [
      'a version it does not read',
      (body: Record<string, unknown>) => ({ ...body, snapshot_version: 'canvas-snapshot.v3' }),
      'canvas-snapshot.v3',
    ],
    ['no version at all', ({ snapshot_version: _version, ...body }: Record<string, unknown>) => body, 'unversioned'],
  ])('%s is a contract error, not retryable', async (_name, transform, mentioned) => {
    rewrite = transform;
    const client = await connectClient(gateway.mcpUrl, { Authorization: `Bearer ${world.tokens.editor.secret}` });
    try {
      const result = await client.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } });
      expect(toolError(result)).toMatchObject({ isError: true, code: 'contract_error', retryable: false });
      expect(toolError(result).message).toContain(mentioned);
    } finally {
      await client.close();
    }
  });
});
