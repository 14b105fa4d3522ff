/**
 * npm run conformance: the official MCP conformance suite (@modelcontextprotocol/conformance) against this server.
 *
 * It starts a server on a fresh SQLite store (or uses --url), issues it an agent token, and runs the suite through a
 * loopback proxy that adds `Authorization: Bearer <token>` to every request the suite makes (the suite sends none).
 * The suite runs under its own Node (CONFORMANCE_NODE) from its own entry point (CONFORMANCE_CLI), so a newer suite on
 * a newer Node can be pointed at the same server: docs/operations.md, "Conformance".
 *
 *   npm run conformance                                   the active suite, with the expected failures listed
 *                                                         in scripts/conformance-expected-failures.yml
 *   npm run conformance -- --scenario tools-list          one scenario (repeatable)
 *   npm run conformance -- --spec-version 2026-07-28      passed to a suite that knows the flag
 *   npm run conformance -- --url URL                      an already running server (token in CANVAS_MCP_CONFORMANCE_TOKEN)
 *   npm run conformance -- -- --verbose                   anything after -- goes to the suite as is
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadServeConfig } from '../src/config/index.js';
import { startServer } from '../src/server/server.js';
import { createLogger } from '../src/shared/logger.js';

const DEFAULT_EXPECTED_FAILURES = fileURLToPath(new URL('./conformance-expected-failures.yml', import.meta.url));

const separator = process.argv.indexOf('--', 2);
const suiteExtras = separator >= 0 ? process.argv.slice(separator + 1) : [];
const { values: flags } = parseArgs({
  args: separator >= 0 ? process.argv.slice(2, separator) : process.argv.slice(2),
  options: {
    url: { type: 'string' },
    scenario: { type: 'string', multiple: true },
    suite: { type: 'string', default: 'active' },
    'spec-version': { type: 'string', default: process.env.CONFORMANCE_SPEC_VERSION },
    'expected-failures': {
      type: 'string',
      default: process.env.CONFORMANCE_EXPECTED_FAILURES ?? DEFAULT_EXPECTED_FAILURES,
    },
  },
});

const conformanceNode = process.env.CONFORMANCE_NODE ?? process.execPath;
const conformanceCli =
  process.env.CONFORMANCE_CLI ??
  createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');

/** The server under test: the one given, or a fresh one with an agent token of its own. */
async function target(): Promise<{ mcpUrl: URL; token: string; close: () => Promise<void> }> {
  if (flags.url) {
    const token = process.env.CANVAS_MCP_CONFORMANCE_TOKEN;
    if (!token) throw new Error("--url needs the server's agent token in CANVAS_MCP_CONFORMANCE_TOKEN.");
    return { mcpUrl: new URL(flags.url), token, close: async () => undefined };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-conformance-'));
  const config = loadServeConfig({ port: 0, dataDir, seedDemo: false, workers: 0, rateLimitPerMinute: 0 }, {});
  const server = await startServer(config, { logger: createLogger('warn') });
  const { projects, tokens } = server.store!;
  await projects.createWorkspace('conformance');
  await projects.createProject('conformance', 'conformance');
  const { secret } = await tokens.createToken({
    name: 'conformance',
    kind: 'agent',
    role: 'viewer',
    projects: ['conformance'],
    workspaces: [],
    actor: null,
    expiresAt: null,
  });
  return {
    mcpUrl: new URL(server.mcpUrl),
    token: secret,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Forwards every request to the server unchanged (Host included, so Host and Origin checks still apply), adding the
 * bearer token when the request carries no Authorization of its own.
 */
function startAuthProxy(upstream: URL, token: string): Promise<{ url: string; close: () => Promise<void> }> {
  const proxy = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const headers = { ...incoming.headers };
    headers.authorization ??= `Bearer ${token}`;
    const forwarded = request(
      { hostname: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => {
    proxy.listen(0, '127.0.0.1', () => {
      const { port } = proxy.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}${upstream.pathname}`,
        close: () => new Promise<void>((done) => proxy.close(() => done())),
      });
    });
  });
}

function runSuite(url: string, selection: string[]): Promise<number> {
  const args = [conformanceCli, 'server', '--url', url, ...selection];
  if (flags['spec-version']) args.push('--spec-version', flags['spec-version']);
  args.push(...suiteExtras);
  process.stderr.write(`conformance: ${conformanceNode} ${args.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn(conformanceNode, args, { stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const server = await target();
const proxy = await startAuthProxy(server.mcpUrl, server.token);
let failures = 0;
try {
  if (flags.scenario?.length) {
    for (const scenario of flags.scenario)
      if ((await runSuite(proxy.url, ['--scenario', scenario])) !== 0) failures += 1;
  } else {
    failures =
      (await runSuite(proxy.url, ['--suite', flags.suite, '--expected-failures', flags['expected-failures']])) === 0
        ? 0
        : 1;
  }
} finally {
  await proxy.close();
  await server.close();
}
process.exit(failures === 0 ? 0 : 1);
