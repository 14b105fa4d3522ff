import { statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { rssMegabytes } from '../../bench/process-stats.js';
import { pollWhile } from '../../test/support/raw-http.js';
import {
  admin,
  agentHeaders,
  demoCredentials,
  mcpCall,
  serve,
  sleep,
  stop,
  type Row,
  type Served,
} from '../harness.js';
import { scenarioStore, type ScenarioStore } from '../stores.js';

/**
 * Three resource scenarios of the people's side against the built CLI: a viewer's unread change feeds on a canvas whose
 * recent revisions carry large bodies (memory), two viewers reading history in a loop (/healthz), and a person
 * reverting back and forth between a revision with large nodes and one without (growth of the store).
 */

const DEMO = { project_id: 'demo', canvas_id: 'main' };
const EVENTS = '/api/v2/projects/demo/canvases/main/events';

/** About 400 KB (strings are at most 100,000 characters each). */
function bigNode(id: string) {
  return {
    id,
    type: 'beatContextNode',
    position: { x: 0, y: 0 },
    data: { mainline_context: Array.from({ length: 4 }, (_, index) => `${id}-${index}`.padEnd(100_000, 'x')) },
  };
}

async function revision(served: Served, headers: Record<string, string>): Promise<number> {
  return ((await mcpCall(served.url, headers, 'get_canvas', DEMO)).content as { layout: { revision: number } }).layout
    .revision;
}

/** `count` revisions, each creating or deleting a node of ~400 KB, written by the demo's agent. */
async function largeRevisions(served: Served, headers: Record<string, string>, count: number): Promise<void> {
  let base = await revision(served, headers);
  for (let index = 0; index < count; index += 1) {
    const args = index % 2 === 0 ? { node: bigNode(`big-${index}`) } : { node_id: `big-${index - 1}` };
    const answer = await mcpCall(served.url, headers, index % 2 === 0 ? 'create_canvas_node' : 'delete_canvas_node', {
      ...DEMO,
      base_revision: base,
      ...args,
    });
    if (answer.isError)
      throw new Error(`seeding revision ${index}: ${JSON.stringify(answer.content ?? answer.rpcError)}`);
    base += 1;
  }
}

async function viewerToken(store: ScenarioStore): Promise<string> {
  const created = await admin([
    'token',
    'create',
    '--name',
    'viewer',
    '--kind',
    'backend',
    '--role',
    'viewer',
    '--project',
    'demo',
    ...store.flags,
  ]);
  return created.token as string;
}

/** A feed request that reads nothing after the status line: what a client that never reads costs the server. */
function unreadFeed(url: string, path: string, token: string): Promise<{ socket: Socket; status: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
      );
      socket.once('data', (chunk: Buffer) => {
        socket.pause();
        resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1] ?? 0) });
      });
    });
    socket.on('error', reject);
  });
}

export async function feedMemory(): Promise<Row> {
  const store = await scenarioStore('sqlite');
  const served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'));
  const sockets: Socket[] = [];
  try {
    const { token, chatRun } = await demoCredentials(served.logFile);
    const headers = agentHeaders(token, chatRun);
    await largeRevisions(served, headers, 100);
    const viewer = await viewerToken(store);
    const pid = served.child.pid!;
    const rssBefore = rssMegabytes(pid);
    const statuses: number[] = [];
    // As in the review: 30 connections of one viewer, half catching up from revision 1 (40 MB), half from 8 back.
    const last = await revision(served, headers);
    for (let index = 0; index < 30; index += 1) {
      const opened = await unreadFeed(served.url, `${EVENTS}?after=${index % 2 === 0 ? 1 : last - 8}`, viewer);
      sockets.push(opened.socket);
      statuses.push(opened.status);
    }
    await sleep(3000);
    const rssAfter = rssMegabytes(pid);
    const grown = rssAfter - rssBefore;
    const accepted = statuses.filter((status) => status === 200).length;
    const refused = statuses.filter((status) => status === 429).length;
    return {
      scenario: 'feed catch-up memory, 30 unread feeds of a viewer',
      store: 'sqlite',
      rssDriftMb: Math.round(grown * 10) / 10,
      refusedCleanly: `${refused}/${30 - 16}`,
      notes: `100 revisions of ~400 KB; ${accepted} feeds accepted, ${refused} refused with 429; RSS ${rssBefore.toFixed(0)} MB, then ${rssAfter.toFixed(0)} MB (before feeds were bounded: 457 → 1,205 MB)`,
      pass: accepted === 16 && refused === 14 && grown < 150,
    };
  } finally {
    for (const socket of sockets) socket.destroy();
    await stop(served.child);
    store.destroy();
  }
}

/**
 * The longest /healthz may wait while two viewers page through history. The defect this guards (a history page read
 * every body its revisions left) was a stall of about a second; 50 ms held on the host it was set on, but on a host two
 * to three times slower the code from before the work for many servers (docs/scaling.md) measured 35–68 ms (a major
 * garbage collection landing in the window), so the budget is the error amplification scenario's 100 ms: still a tenth
 * of the defect.
 */
const HISTORY_STALL_BUDGET_MS = 100;

export async function historyStall(): Promise<Row> {
  const store = await scenarioStore('sqlite');
  const served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'));
  try {
    const { token, chatRun } = await demoCredentials(served.logFile);
    await largeRevisions(served, agentHeaders(token, chatRun), 200);
    const viewer = await viewerToken(store);
    await sleep(500);
    const health = pollWhile(`${served.url}/healthz`, 5);
    let pages = 0;
    const started = performance.now();
    const reader = async () => {
      while (performance.now() - started < 3000) {
        const response = await fetch(`${served.url}/api/v2/projects/demo/canvases/main/history?limit=200`, {
          headers: { authorization: `Bearer ${viewer}` },
        });
        if (response.status === 200) pages += 1;
        await response.arrayBuffer();
      }
    };
    await Promise.all([reader(), reader()]);
    const samples = await health.stop();
    const slowest = Math.max(...samples.map((sample) => sample.ms));
    return {
      scenario: 'history pages in a loop, 2 viewers',
      store: 'sqlite',
      notes: `200 revisions of ~400 KB; ${pages} pages of 200 revisions in 3 s; slowest /healthz ${slowest.toFixed(1)} ms (budget ${HISTORY_STALL_BUDGET_MS}; before history pages stopped reading bodies: ~1 s)`,
      pass: pages > 0 && slowest < HISTORY_STALL_BUDGET_MS,
    };
  } finally {
    await stop(served.child);
    store.destroy();
  }
}

export async function revertAmplification(): Promise<Row> {
  const store = await scenarioStore('sqlite');
  // The default write budget (600 writes and 64 MiB of change log a minute per person).
  const served = await serve(
    [...store.flags, '--workers', '0', '--rate-limit', '600'],
    join(store.dataDir, 'serve.log'),
  );
  try {
    const { token, chatRun } = await demoCredentials(served.logFile);
    const headers = agentHeaders(token, chatRun);
    // A revision with 20 nodes of ~400 KB, then one without them.
    let base = await revision(served, headers);
    for (let index = 0; index < 20; index += 1) {
      await mcpCall(served.url, headers, 'create_canvas_node', {
        ...DEMO,
        base_revision: base,
        node: bigNode(`keep-${index}`),
      });
      base += 1;
    }
    const withNodes = base;
    for (let index = 0; index < 20; index += 1) {
      await mcpCall(served.url, headers, 'delete_canvas_node', {
        ...DEMO,
        base_revision: base,
        node_id: `keep-${index}`,
      });
      base += 1;
    }
    const withoutNodes = base;
    const person = await admin([
      'token',
      'create',
      '--name',
      'owner',
      '--kind',
      'backend',
      '--project',
      'demo',
      '--actor-issuer',
      'canvas-mcp',
      '--actor-subject',
      'demo-owner',
      ...store.flags,
    ]);
    const database = join(store.dataDir, 'canvas.db');
    const storeBytes = () =>
      [database, `${database}-wal`].reduce(
        (sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0),
        0,
      );
    const sizeBefore = storeBytes();
    const codes: string[] = [];
    const started = performance.now();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await fetch(`${served.url}/api/v2/projects/demo/canvases/main/revert`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${person.token as string}`,
          'x-service-actor-issuer': 'canvas-mcp',
          'x-service-actor-subject': 'demo-owner',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ base_revision: base, to_revision: attempt % 2 === 0 ? withNodes : withoutNodes }),
      });
      const body = (await response.json()) as { revision?: number; error?: { code: string } };
      codes.push(body.error?.code ?? String(response.status));
      if (body.revision !== undefined) base = body.revision;
    }
    const elapsedMs = performance.now() - started;
    const sizeAfter = storeBytes();
    const grownMb = (sizeAfter - sizeBefore) / 1e6;
    const refused = codes.filter((code) => code === 'limit_exceeded').length;
    return {
      scenario: 'revert back and forth, 20 nodes of ~400 KB',
      store: 'sqlite',
      // Every other revert restores the 20 nodes: those are the ones refused.
      refusedCleanly: `${refused}/${codes.length / 2}`,
      notes: `10 reverts in ${elapsedMs.toFixed(0)} ms: ${[...new Set(codes)].join(', ')}; the store grew ${grownMb.toFixed(2)} MB (before a write's change log was bounded: 50 MB for 10 reverts)`,
      pass: refused >= 5 && grownMb < 5,
    };
  } finally {
    await stop(served.child);
    store.destroy();
  }
}
