import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * Baseline 1: a bare node:http JSON-RPC handler serving the same get_canvas result. It parses the request and
 * serializes the result on every call, as a straightforward handler would; no auth, no checks.
 */
const snapshot = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as unknown;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const request = JSON.parse(Buffer.concat(chunks).toString()) as { id: number };
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: request.id,
      result: { content: [{ type: 'text', text: JSON.stringify(snapshot) }], structuredContent: snapshot },
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
