import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13, the last to run on Node 20)
 * against the running server. It sends no Authorization header, so a --import preload adds ours to fetch.
 */
const run = promisify(execFile);
const CONFORMANCE_CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const PRELOAD = new URL('./auth-preload.mjs', import.meta.url).pathname;

describe('MCP conformance suite', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!);
    await server.store.admin.createWorkspace('w');
    await server.store.admin.createProject('p', 'w');
    ({ secret: token } = await server.store.admin.createToken({
      name: 'conformance',
      kind: 'agent',
      role: 'viewer',
      projects: ['p'],
      workspaces: [],
      actor: null,
      expiresAt: null,
    }));
  });
  afterAll(async () => server?.close());

  it.each(['server-initialize', 'ping', 'tools-list'])('scenario %s passes', async (scenario) => {
    const { stdout } = await run(
      process.execPath,
      ['--import', PRELOAD, CONFORMANCE_CLI, 'server', '--url', `${server.url}/mcp`, '--scenario', scenario],
      { env: { ...process.env, CANVAS_MCP_CONFORMANCE_TOKEN: token }, timeout: 60_000 },
    );
    expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  }, 90_000);
});
