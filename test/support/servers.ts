import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadServeConfig, type ConfigInput } from '../../src/config/index.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { createLogger } from '../../src/shared/logger.js';
import type { Store } from '../../src/store/store.js';
import type { StoreTarget, TestDatabase } from './stores.js';

/** The real server on a free loopback port, on a fresh real database, with its log lines captured. */
export interface TestServer {
  server: RunningServer;
  url: string;
  store: Store;
  database: TestDatabase;
  /** Where the server keeps local files (assets, uploads in progress). */
  dataDir: string;
  logs: string[];
  close(): Promise<void>;
}

/** `options.database`: a database another test server already uses (a second server process on it); left to its owner. */
export async function startTestServer(
  target: StoreTarget,
  overrides: ConfigInput = {},
  options: { clock?: () => number; database?: TestDatabase } = {},
): Promise<TestServer> {
  const database = options.database ?? (await target.createDatabase());
  const location =
    database.location.kind === 'sqlite'
      ? { dataDir: database.location.file.replace(/\/canvas\.db$/, '') }
      : // Assets still need a data dir: a temporary one, never the working directory's ./data.
        { databaseUrl: database.location.url, dataDir: mkdtempSync(join(tmpdir(), 'canvas-mcp-assets-')) };
  // An empty environment: the developer's CANVAS_MCP_* variables never leak into a test.
  // No run workers unless a test asks for them: most suites need submitted runs to stay queued.
  const config = loadServeConfig(
    { port: 0, seedDemo: false, rateLimitPerMinute: 0, workers: 0, ...location, ...overrides },
    {},
  );
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const server = await startServer(config, {
    logger: createLogger('info', destination),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    server,
    url: server.url,
    store: server.store!,
    database,
    dataDir: config.dataDir,
    logs,
    async close() {
      await server.close();
      if (!options.database) await database.cleanup();
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface ApiRequest {
  method?: string;
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
}

export async function api(baseUrl: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token !== undefined) headers.authorization = `Bearer ${request.token}`;
  if (request.body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method: request.method ?? 'GET',
    headers,
    body: request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * Signs in with a one-time link as a browser does: the link's page (GET, which spends nothing), then the page's own
 * form (POST with this server's Origin). Returns the final answer and the session cookie (`name=value`) it set.
 */
export async function signInWithLink(
  linkUrl: string,
  options: { cookie?: string; replace?: boolean } = {},
): Promise<{ response: Response; cookie: string }> {
  const url = new URL(linkUrl);
  const confirm = await fetch(url, { redirect: 'manual', headers: options.cookie ? { cookie: options.cookie } : {} });
  if (confirm.status !== 200) return { response: confirm, cookie: '' };
  const form = new URLSearchParams({ token: url.searchParams.get('token') ?? '' });
  if (options.replace) form.set('replace', '1');
  const response = await fetch(new URL('/auth/login', url), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: url.origin,
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: form,
  });
  return { response, cookie: response.headers.get('set-cookie')?.split(';', 1)[0] ?? '' };
}
