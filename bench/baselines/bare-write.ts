import { createServer } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Baseline 3: the least a durable, revision-checked create can cost. A bare node:http JSON-RPC handler that parses the
 * create_canvas_node request and, in one SQLite transaction with the same durability as ours (WAL,
 * synchronous=FULL), checks base_revision, inserts the node and bumps the revision. No auth, no validation, no
 * edit authorization, no change log, no logging. A stale base_revision answers 409, so it counts as an error.
 * GET /revision answers the canvas revision, to check afterwards that every create landed.
 */
const database = new Database(join(process.argv[2]!, 'bare-write.db'));
database.pragma('journal_mode = WAL');
database.pragma('synchronous = FULL');
database.exec(`CREATE TABLE IF NOT EXISTS canvas (id INTEGER PRIMARY KEY CHECK (id = 1), revision INTEGER NOT NULL);
  INSERT OR IGNORE INTO canvas (id, revision) VALUES (1, 0);
  CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, body TEXT NOT NULL, created_revision INTEGER NOT NULL);`);
const readRevision = database.prepare<[], { revision: number }>('SELECT revision FROM canvas WHERE id = 1');
const insertNode = database.prepare('INSERT INTO nodes (id, body, created_revision) VALUES (?, ?, ?)');
const bumpRevision = database.prepare('UPDATE canvas SET revision = ? WHERE id = 1');

interface CreateCall {
  id: number;
  params: { arguments: { base_revision: number; node: { id: string } } };
}

const create = database.transaction((call: CreateCall): number | undefined => {
  const { base_revision: baseRevision, node } = call.params.arguments;
  if (readRevision.get()!.revision !== baseRevision) return undefined;
  insertNode.run(node.id, JSON.stringify(node), baseRevision + 1);
  bumpRevision.run(baseRevision + 1);
  return baseRevision + 1;
});

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/revision') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(readRevision.get()!));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const call = JSON.parse(Buffer.concat(chunks).toString()) as CreateCall;
    const revision = create(call);
    if (revision === undefined) {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'revision conflict' } }));
      return;
    }
    const receipt = { revision, node_id: call.params.arguments.node.id };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: call.id,
        result: { content: [{ type: 'text', text: JSON.stringify(receipt) }], structuredContent: receipt },
      }),
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});
