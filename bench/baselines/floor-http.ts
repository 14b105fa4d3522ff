import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The floor: what node:http alone costs to answer this get_canvas, with nothing else done. The whole reply is built
 * once, at start; each request's body is read and dropped, and the same bytes are written back. No handler that reads
 * the request and answers from it over node:http can cost less per call; a target below this figure is a target for
 * another HTTP stack, not for our code.
 */
const snapshot = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as unknown;
const reply = Buffer.from(
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: JSON.stringify(snapshot) }], structuredContent: snapshot },
  }),
);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': reply.length });
    res.end(reply);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
