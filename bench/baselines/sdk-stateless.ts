import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import type { Request, Response } from 'express';
import * as z from 'zod/v4';

/**
 * Baseline 2: the official SDK's stateless example (examples/server/simpleStatelessStreamableHttp.ts), serving
 * the same get_canvas result: a new McpServer and transport per request. Its console.log lines are left out.
 */
const snapshot = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, unknown>;

const getServer = () => {
  const server = new McpServer(
    { name: 'stateless-streamable-http-server', version: '1.0.0' },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    'get_canvas',
    { description: 'Read one canvas', inputSchema: { project_id: z.string(), canvas_id: z.string() } },
    async () => ({ content: [{ type: 'text', text: JSON.stringify(snapshot) }], structuredContent: snapshot }),
  );
  return server;
};

const app = createMcpExpressApp();
app.post('/mcp', async (req: Request, res: Response) => {
  const server = getServer();
  try {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
  } catch {
    if (!res.headersSent)
      res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
  }
});
const listener = app.listen(0, '127.0.0.1', () => {
  const address = listener.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
