import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectClient, structured } from '../support/mcp.js';
import { cli, serveProcess } from '../support/cli.js';

/** `canvas-mcp serve` as a user starts it: demo seed, configuration from flags and environment, shutdown. */

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-serve-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

describe('serve', () => {
  it('keeps its data dir private: 0700 directories, 0600 files, and tightens an open one at start', async () => {
    const parent = tempDir();
    const fresh = join(parent, 'fresh');
    const first = serveProcess(['--data', fresh, '--port', '0', '--log-level', 'warn']);
    await first.waitFor(/listening on/);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(modeOf(fresh)).toBe('700');
    expect(modeOf(join(fresh, 'assets'))).toBe('700');
    for (const file of readdirSync(fresh).filter((name) => name.startsWith('canvas.db')))
      expect([file, modeOf(join(fresh, file))]).toEqual([file, '600']);

    const open = join(parent, 'open');
    mkdirSync(join(open, 'assets'), { recursive: true });
    chmodSync(open, 0o755);
    chmodSync(join(open, 'assets'), 0o755);
    writeFileSync(join(open, 'assets', 'asset_AAAAAAAAAAAAAAAA'), 'x', { mode: 0o644 });
    const second = serveProcess(['--data', open, '--port', '0', '--log-level', 'warn']);
    await second.waitFor(/listening on/);
    expect(second.output()).toContain('permissions tightened');
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
    expect([
      modeOf(open),
      modeOf(join(open, 'assets')),
      modeOf(join(open, 'assets', 'asset_AAAAAAAAAAAAAAAA')),
    ]).toEqual(['700', '700', '600']);
  }, 60_000);

  it('seeds the demo on an empty store, prints what a client needs, serves it, and stops on SIGTERM', async () => {
    const data = tempDir();
    const serve = serveProcess(['--data', data, '--port', '0', '--log-level', 'warn']);
    const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, token] = await serve.waitFor(/token \(shown once, keep it\):\s+(cmcp_\S+)/);
    const [, agentRunId] = await serve.waitFor(/agent run id \(X-Agent-Run-Id\): (chat_\S+)/);
    expect(serve.output()).toContain('"mcpServers"');
    expect(serve.output()).toContain('claude mcp add --transport http');

    const client = await connectClient(`${url}/mcp/`, {
      Authorization: `Bearer ${token}`,
      'X-Agent-Run-Id': agentRunId!,
    });
    const canvas = structured<{ layout: { nodes: Array<{ type: string }>; edges: unknown[]; revision: number } }>(
      await client.callTool({ name: 'get_canvas', arguments: { project_id: 'demo', canvas_id: 'main' } }),
    );
    expect(new Set(canvas.layout.nodes.map((node) => node.type)).size).toBeGreaterThanOrEqual(5);
    expect(canvas.layout.edges.length).toBeGreaterThan(0);
    const created = await client.callTool({
      name: 'create_canvas_node',
      arguments: {
        project_id: 'demo',
        canvas_id: 'main',
        base_revision: canvas.layout.revision,
        node: {
          id: 'hello',
          type: 'textAnnotationNode',
          position: { x: 0, y: 600 },
          data: { content: 'Hello', displayName: 'Greeting' },
        },
      },
    });
    expect(created.isError).toBeFalsy();
    await client.close();

    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
    expect(serve.output()).toContain('SIGTERM: shutting down');

    // A second start on the same data keeps the data and seeds nothing.
    const again = serveProcess(['--data', data, '--port', '0', '--log-level', 'warn']);
    await again.waitFor(/listening on/);
    expect(again.output()).not.toContain('Demo seeded');
    again.child.kill('SIGINT');
    expect(await again.exit).toBe(0);
  }, 90_000);

  it('reads its settings from CANVAS_MCP_* environment variables', async () => {
    const data = tempDir();
    const serve = serveProcess([], {
      CANVAS_MCP_DATA_DIR: data,
      CANVAS_MCP_PORT: '0',
      CANVAS_MCP_LOG_LEVEL: 'warn',
      CANVAS_MCP_SEED_DEMO: 'false',
    });
    const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const ready = await fetch(`${url}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', store: 'sqlite' });
    expect(serve.output()).not.toContain('Demo seeded');
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 60_000);

  it('reads canvas-mcp.config.json from where it starts; the environment and flags win over it', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'canvas-mcp.config.json'),
      JSON.stringify({
        data: './state',
        port: 0,
        'log-level': 'warn',
        'seed-demo': false,
        'run-prices': { 'gpt-image-1': 3 },
      }),
    );
    const serve = serveProcess([], { CANVAS_MCP_SEED_DEMO: 'true' }, dir);
    const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // The data directory came from the file; the environment's seed-demo won over the file's.
    expect(readdirSync(join(dir, 'state'))).toContain('canvas.db');
    expect(serve.output()).toContain('Demo seeded');
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 60_000);

  it.each([
    [
      { 'openai-api-key': 'sk-not-here' },
      '"openai-api-key" is a secret; set CANVAS_MCP_OPENAI_API_KEY in the environment instead',
    ],
    [
      { imageProvider: 'fal' },
      '"imageProvider" is not a setting (the settings are the serve flags without --, such as "image-provider")',
    ],
    [{ port: 'abc' }, '--port (CANVAS_MCP_PORT)'],
    [{ 'image-provider': { name: 'fal' } }, '"image-provider" must be a string, a number or true/false'],
    [{ port: null }, '"port" must be a string, a number or true/false'],
    // Checked as the flag would be: false is not a port (it is not read as 0).
    [{ port: false }, '--port (CANVAS_MCP_PORT)'],
    [{ 'rate-limit': [] }, '"rate-limit" must be a string, a number or true/false'],
    [{ 'run-prices': ['fal'] }, '"run-prices" must be an object of model ids to credits'],
  ])(
    'refuses a settings file %j naming what is wrong, never echoing a secret',
    async (settings, message) => {
      const file = join(tempDir(), 'settings.json');
      writeFileSync(file, JSON.stringify(settings));
      const result = await cli(['serve', '--config', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain('sk-not-here');
    },
    60_000,
  );

  it('refuses a settings file that is not JSON without quoting it (it may hold a secret)', async () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, `{\n  "port": 0,\n  "openai-api-key": 'sk-proj-abcdefghijkl'\n}\n`);
    const result = await cli(['serve', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}: not valid JSON`);
    expect(result.stderr).not.toContain('sk-proj');
  }, 60_000);

  it('refuses a --config that names no file', async () => {
    const result = await cli(['serve', '--config', join(tempDir(), 'missing.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--config (CANVAS_MCP_CONFIG): there is no file');
  }, 60_000);

  it.each([
    [['--port', 'abc'], '--port (CANVAS_MCP_PORT)'],
    [['--log-level', 'loud'], '--log-level (CANVAS_MCP_LOG_LEVEL)'],
    [['--database-url', 'mysql://x'], 'must be a postgres:// or postgresql:// URL'],
    [['--sqlite-synchronous', 'off'], '--sqlite-synchronous (CANVAS_MCP_SQLITE_SYNCHRONOUS)'],
    [
      ['--backend-url', 'http://127.0.0.1:1'],
      '--backend-token (CANVAS_MCP_BACKEND_TOKEN): is required with --backend-url',
    ],
    [
      ['--run-prices', '{fal: 1}'],
      '--run-prices (CANVAS_MCP_RUN_PRICES): must be a JSON object of model id to credits per output',
    ],
    [['--run-prices', '{"fal-ai/flux/schnell": "cheap"}'], '--run-prices (CANVAS_MCP_RUN_PRICES)'],
    [['--image-provider', 'fal'], 'CANVAS_MCP_FAL_KEY: is required with --image-provider fal'],
  ])(
    'refuses bad configuration %j with a clear message and exit code 2',
    async (args, message) => {
      const result = await cli(['serve', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Invalid configuration');
      expect(result.stderr).toContain(message);
    },
    60_000,
  );

  it('starts without loading the libraries only some requests use, and loads one at the first request that needs it', async () => {
    // A module hook of Node's records every module the process resolves, as it resolves it.
    const dir = tempDir();
    const loaded = join(dir, 'loaded.txt');
    writeFileSync(loaded, '');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
       export async function resolve(specifier, context, next) {
         const resolved = await next(specifier, context);
         appendFileSync(${JSON.stringify(loaded)}, resolved.url + '\\n');
         return resolved;
       }`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module'; register('./hooks.mjs', import.meta.url);`,
    );
    const serve = serveProcess(['--data', join(dir, 'data'), '--port', '0', '--log-level', 'warn'], {
      NODE_OPTIONS: `--import=${join(dir, 'register.mjs')}`,
    });
    const [, url] = await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const packagesOf = () =>
      new Set(
        [...readFileSync(loaded, 'utf8').matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((match) => match[1]),
      );
    // Each of these took 25 to 500 ms of every start (docs/performance.md, "Start").
    const atFirstUse = [
      'oidc-provider',
      'openid-client',
      'jose',
      'ai',
      '@ai-sdk/anthropic',
      '@ai-sdk/openai',
      '@ai-sdk/openai-compatible',
      '@ai-sdk/mcp',
      'pg',
      'exceljs',
      'pdfkit',
      'elkjs',
      '@aws-sdk/client-s3',
      '@peculiar/x509',
      'nodemailer',
      'sharp',
      'file-type',
      'fast-xml-parser',
    ];
    const atStart = packagesOf();
    expect(atStart.has('hono')).toBe(true);
    expect(atFirstUse.filter((name) => atStart.has(name))).toEqual([]);

    // The authorization server's metadata: the first request that needs oidc-provider loads it, and is answered.
    const metadata = await fetch(`${url}/.well-known/oauth-authorization-server/oauth`);
    expect(metadata.status).toBe(200);
    expect(((await metadata.json()) as { issuer: string }).issuer).toBe(`${url}/oauth`);
    expect(packagesOf().has('oidc-provider')).toBe(true);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  }, 60_000);
});
