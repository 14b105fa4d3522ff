import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { cpuMillis, rssMegabytes } from './process-stats.js';
import { ROOT, startProcess } from './processes.js';
import { arrivalWaiter, readEvents } from './sse-reader.js';
import { benchToken } from './workload.js';

/**
 * `npm run bench` (part): the change feed. Latency from sending a write (create_canvas_node through MCP) to its
 * `layout` event arriving at each subscriber, with 1 and with 200 subscribers on one canvas; and the server's memory
 * per idle subscriber, from its RSS with 1,000 of them open. Targets: p99 under 50 ms at 200 subscribers, under 50 KB
 * per idle subscriber.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const WRITES = Number(process.env.BENCH_FEED_WRITES ?? 100);
const FEEDS_PER_TOKEN = 16;

interface Subscriber {
  /** Arrival time of each revision's layout event. */
  arrivals: Map<number, number>;
  close(): void;
}

/** Wakes the measuring loop when an awaited revision has reached every subscriber, without polling for it. */
const arrival = arrivalWaiter();

async function subscribe(url: string, token: string): Promise<Subscriber> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const arrivals = new Map<number, number>();
  void readEvents(response, (block, now) => {
    if (!block.startsWith('event: layout')) return;
    const id = /^id: (\d+)$/m.exec(block)?.[1];
    if (id) {
      arrivals.set(Number(id), now);
      arrival.wake();
    }
  });
  return { arrivals, close: () => controller.abort() };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function mcp(
  url: string,
  headers: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return ((await response.json()) as { result: { structuredContent: Record<string, unknown> } }).result
    .structuredContent;
}

export interface FeedFigures {
  subscribers: number;
  p50: number;
  p99: number;
  max: number;
  /** Server CPU per write with this many subscribers (the write, its reads, and its event to each subscriber). */
  cpuPerWriteMs: number;
}

export async function measureFeed(): Promise<{
  latency: FeedFigures[];
  idle: { subscribers: number; kbPerSubscriber: number };
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-feed-'));
  const logFile = join(dataDir, 'serve.log');
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0'],
    logFile,
  );
  try {
    const log = readFileSync(logFile, 'utf8');
    const agentToken = /token \(shown once, keep it\):\s+(cmcp_\S+)/.exec(log)![1]!;
    const chatRun = /agent run id \(X-Agent-Run-Id\): (chat_\S+)/.exec(log)![1]!;
    // A token may hold 16 feeds open: the subscribers share viewer tokens, 16 to a token.
    const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
    const readers: string[] = [];
    for (let index = 0; index < Math.ceil(1000 / FEEDS_PER_TOKEN); index += 1) {
      readers.push(
        (await benchToken(store, { name: `feed-${index}`, kind: 'backend', role: 'viewer', projects: ['demo'] }))
          .secret,
      );
    }
    await store.close();
    const readerFor = (index: number) => readers[Math.floor(index / FEEDS_PER_TOKEN)]!;
    const headers = { authorization: `Bearer ${agentToken}`, 'x-agent-run-id': chatRun };
    const feedUrl = `${url}/api/v2/projects/demo/canvases/main/events`;
    const latency: FeedFigures[] = [];
    for (const count of [1, 200]) {
      const subscribers = await Promise.all(
        Array.from({ length: count }, (_, index) => subscribe(feedUrl, readerFor(index))),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const samples: number[] = [];
      const cpuBefore = cpuMillis(child.pid!);
      for (let index = 0; index < WRITES; index += 1) {
        const revision = (
          (await mcp(url, headers, 'get_canvas', { project_id: 'demo', canvas_id: 'main' })).layout as {
            revision: number;
          }
        ).revision;
        const sent = performance.now();
        await mcp(url, headers, 'create_canvas_node', {
          project_id: 'demo',
          canvas_id: 'main',
          base_revision: revision,
          node: {
            id: `feed-${count}-${index}`,
            type: 'textAnnotationNode',
            position: { x: 0, y: index },
            data: { content: 'x' },
          },
        });
        await arrival.until(() => subscribers.every((subscriber) => subscriber.arrivals.has(revision + 1)), 2000);
        for (const subscriber of subscribers) samples.push((subscriber.arrivals.get(revision + 1) ?? Infinity) - sent);
      }
      const cpuPerWriteMs = (cpuMillis(child.pid!) - cpuBefore) / WRITES;
      for (const subscriber of subscribers) subscriber.close();
      latency.push({
        subscribers: count,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        max: Math.max(...samples),
        cpuPerWriteMs,
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    // Memory: the server's RSS before and after 1,000 idle subscribers connect.
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rssMegabytes(child.pid!);
    const idle = await Promise.all(Array.from({ length: 1000 }, (_, index) => subscribe(feedUrl, readerFor(index))));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const after = rssMegabytes(child.pid!);
    for (const subscriber of idle) subscriber.close();
    return { latency, idle: { subscribers: 1000, kbPerSubscriber: ((after - before) * 1024) / 1000 } };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { latency, idle } = await measureFeed();
  const lines = [
    '| subscribers | write → event p50 ms | p99 ms | max ms | server CPU ms per write |',
    '|---:|---:|---:|---:|---:|',
    ...latency.map(
      (row) =>
        `| ${row.subscribers} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.max.toFixed(1)} | ${row.cpuPerWriteMs.toFixed(2)} |`,
    ),
    '',
    `Fan-out: ${(((latency[1]!.cpuPerWriteMs - latency[0]!.cpuPerWriteMs) / (latency[1]!.subscribers - latency[0]!.subscribers)) * 1000).toFixed(1)} µs of server CPU per event per subscriber.`,
    `Memory: ${idle.kbPerSubscriber.toFixed(1)} KB of server RSS per idle subscriber (${idle.subscribers} open).`,
  ];
  process.stdout.write(`\nchange feed (${WRITES} writes per row):\n${lines.join('\n')}\n`);
}
