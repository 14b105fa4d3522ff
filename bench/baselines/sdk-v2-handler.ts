import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/**
 * Baseline 3: the official SDK v2 HTTP entry, `createMcpHandler` (@modelcontextprotocol/server 2.4.0), serving the
 * same get_canvas result in both protocol eras from one factory: a fresh McpServer per request, as the SDK builds
 * it. The handler is web-standard (fetch-shaped); on node:http it runs through @hono/node-server's adapter, which
 * this project already uses for its REST routes.
 */
const snapshot = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, unknown>;

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'canvas-mcp-bench', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'get_canvas',
    { description: 'Read one canvas', inputSchema: z.object({ project_id: z.string(), canvas_id: z.string() }) },
    async () => ({ content: [{ type: 'text', text: JSON.stringify(snapshot) }], structuredContent: snapshot }),
  );
  return server;
});

const listener = getRequestListener((request: Request) => handler.fetch(request));
const server = createServer((req, res) => void listener(req, res));
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
