import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadServeConfig, type ConfigInput } from '../../src/config/index.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { createLogger } from '../../src/shared/logger.js';
import { startTestServer, type TestServer } from './servers.js';
import type { StoreTarget } from './stores.js';
import { seedWorld, type World } from '../backend/world.js';

/** The official MCP TypeScript SDK client over real HTTP. */
export async function connectClient(mcpUrl: string, headers: Record<string, string>): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } });
  const client = new Client({ name: 'canvas-mcp-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export function structured<T = Record<string, unknown>>(result: CallToolResult | Record<string, unknown>): T {
  return (result as CallToolResult).structuredContent as T;
}

export function toolError(result: CallToolResult | Record<string, unknown>) {
  const typed = result as CallToolResult;
  return {
    isError: typed.isError,
    text: (typed.content?.[0] as { text?: string } | undefined)?.text ?? '',
    ...(
      typed.structuredContent as {
        error: { code: string; message: string; retryable: boolean; details: Record<string, unknown> };
      }
    ).error,
  };
}

/**
 * A tool server to test against, in either mode: in-process (one server) or gateway (a tool server with its own
 * gateway credential in front of a separately started backend). `backend` is the server holding the store.
 */
export interface McpDeployment {
  mode: 'in-process' | 'gateway';
  mcpUrl: string;
  backend: TestServer;
  world: World;
  close(): Promise<void>;
}

/**
 * The backend is seeded with the permission test world (agent tokens) before a gateway starts: a gateway token is
 * scoped, and acts only within the workspaces it was issued for (both of the world's).
 */
export async function deploy(
  mode: McpDeployment['mode'],
  target: StoreTarget,
  overrides: ConfigInput = {},
): Promise<McpDeployment> {
  const backend = await startTestServer(target, overrides);
  const world = await seedWorld(backend.store);
  if (mode === 'in-process') {
    return { mode, mcpUrl: backend.server.mcpUrl, backend, world, close: () => backend.close() };
  }
  const { secret } = await backend.store.tokens.createToken({
    name: 'gateway',
    kind: 'gateway',
    role: 'viewer',
    projects: [],
    workspaces: ['w1', 'w2'],
    actor: null,
    expiresAt: null,
  });
  const gateway: RunningServer = await startServer(
    loadServeConfig(
      { port: 0, rateLimitPerMinute: 0, workers: 0, ...overrides, backendUrl: backend.url, backendToken: secret },
      {},
    ),
    { logger: createLogger('silent') },
  );
  return {
    mode,
    mcpUrl: gateway.mcpUrl,
    backend,
    world,
    async close() {
      await gateway.close();
      await backend.close();
    },
  };
}

export const MODES = ['in-process', 'gateway'] as const;
