import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas, projectToken } from '../support/tokens.js';

/**
 * A request refused before its body is read still has its body on the way. The server reads and drops that body
 * before it answers (docs/operations.md, "Timeouts"): closing on unread bytes makes the kernel send a reset, which can
 * reach the client before the answer and throw it away ("connection reset" in place of 413). Each case sends the
 * refused request and a second one on the same connection, pipelined, and reads what comes back: both answers, on a
 * connection still open, prove the body was read and dropped, not closed on.
 */

const TWO_MIB = 2 * 1024 * 1024;

interface Exchange {
  statuses: number[];
  closedByServer: boolean;
  text: string;
}

/** The answers in `text`, each whole: its head and as many body bytes as its content-length says. */
function answersIn(text: string): { statuses: number[]; whole: boolean } {
  const statuses: number[] = [];
  let rest = text;
  for (;;) {
    const head = /^HTTP\/1\.1 (\d{3}) [^]*?\r\n\r\n/.exec(rest);
    if (!head) return { statuses, whole: rest.length === 0 };
    let size: number;
    if (/\r\ntransfer-encoding: chunked/i.test(head[0])) {
      // One chunk and the last one here (a short JSON answer): the body ends at the empty chunk.
      const end = rest.indexOf('\r\n0\r\n\r\n', head[0].length - 2);
      if (end === -1) return { statuses, whole: false };
      size = end + 7 - head[0].length;
    } else {
      size = Number(/\r\ncontent-length: (\d+)/i.exec(head[0])?.[1] ?? 0);
      if (rest.length < head[0].length + size) return { statuses, whole: false };
    }
    statuses.push(Number(head[1]));
    rest = rest.slice(head[0].length + size);
  }
}

/** Writes `bytes` on one connection and collects the answers until `answers` arrived whole or the server closed it. */
function exchange(url: string, bytes: Buffer, answers: number): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 20 s; got ${JSON.stringify(answersIn(text).statuses)}`));
    }, 20_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const seen = answersIn(text);
      if (seen.whole && seen.statuses.length >= answers) {
        clearTimeout(timer);
        socket.end();
        resolve({ statuses: seen.statuses, closedByServer: false, text });
      }
    });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve({ statuses: answersIn(text).statuses, closedByServer: true, text });
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(bytes);
  });
}

function request(method: string, path: string, headers: Record<string, string | number>, body = Buffer.alloc(0)) {
  const head = [
    `${method} ${path} HTTP/1.1`,
    'host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

const HEALTH = request('GET', '/healthz', {});

describe('a body refused before it is read', () => {
  let server: TestServer;
  let editor: string;
  let agent: string;

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!);
    await server.store.projects.createWorkspace('w');
    await server.store.projects.createProject('p', 'w');
    await server.store.projects.createCanvas('p', 'c', false);
    editor = await projectToken(server.store, 'p', 'editor');
    ({ secret: agent } = await agentOnCanvas(server.store, { projectId: 'p', canvasId: 'c', name: 'agent' }));
  });
  afterAll(async () => server?.close());

  it('REST: answers 413 to a body over the limit after reading it, and keeps the connection for the next request', async () => {
    const body = Buffer.alloc(TWO_MIB, 0x20);
    const refused = request(
      'POST',
      '/api/v2/projects/p/canvases/c/nodes',
      { authorization: `Bearer ${editor}`, 'content-type': 'application/json', 'content-length': body.length },
      body,
    );
    const answer = await exchange(server.url, Buffer.concat([refused, HEALTH]), 2);
    expect(answer.statuses).toEqual([413, 200]);
    expect(answer.text).not.toMatch(/connection: close/i);
  });

  it('REST: answers 401 to a request without a valid token after reading its body, and keeps the connection', async () => {
    const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(200_000) }));
    const refused = request(
      'POST',
      '/api/v2/projects/p/canvases/c/nodes',
      { authorization: 'Bearer nope', 'content-type': 'application/json', 'content-length': body.length },
      body,
    );
    const answer = await exchange(server.url, Buffer.concat([refused, HEALTH]), 2);
    expect(answer.statuses).toEqual([401, 200]);
  });

  it('MCP: answers 413 to a body over the limit after reading it, and keeps the connection for the next request', async () => {
    const body = Buffer.alloc(TWO_MIB, 0x20);
    const refused = request(
      'POST',
      '/mcp',
      {
        authorization: `Bearer ${agent}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': body.length,
      },
      body,
    );
    const answer = await exchange(server.url, Buffer.concat([refused, HEALTH]), 2);
    expect(answer.statuses).toEqual([413, 200]);
  });

  it('answers a client that stopped sending within about a second, and closes the connection after the answer', async () => {
    // A client that waits for the answer before it sends the rest must not wait for the drain's whole bound.
    const refused = request(
      'POST',
      '/api/v2/projects/p/canvases/c/nodes',
      { authorization: 'Bearer nope', 'content-type': 'application/json', 'content-length': 500_000 },
      Buffer.from('{"node":'),
    );
    const started = performance.now();
    const answer = await exchange(server.url, refused, 2);
    expect(answer.statuses).toEqual([401]);
    expect(answer.closedByServer).toBe(true);
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('answers a body announced past the bounds at once, and closes the connection after the answer', async () => {
    // Only the head is sent: the server must not wait for 20 MB that it would drop anyway.
    const refused = request('POST', '/mcp', {
      authorization: `Bearer ${agent}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': 20 * 1024 * 1024,
    });
    // Waits for a second answer that never comes: the server ends the connection after the first.
    const answer = await exchange(server.url, refused, 2);
    expect(answer.statuses).toEqual([413]);
    expect(answer.text).toMatch(/connection: close/i);
    expect(answer.closedByServer).toBe(true);
  });
});
