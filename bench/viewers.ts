import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/store.js';
import { cpuMillis, rssMegabytes } from './process-stats.js';
import { startPostgresServe } from './processes.js';
import { arrivalWaiter, readEvents } from './sse-reader.js';
import { benchToken, createNodeBody, mcpHeaders, seed, writeCanvas } from './workload.js';
import { POSTGRES_ADMIN_URL, withThrowawayDatabase } from './throwaway-database.js';

/**
 * `npm run bench` (part): the busiest canvas, measured. Two `serve` processes on one PostgreSQL (with NOTIFY, or with
 * `--feed-bus` when BENCH_FEED_BUS names a NATS server); 1,000 pages hold the canvas's change feed open, half on each,
 * and say where they are (presence) once; an agent writes 20 creates a second through the first server. Reported:
 * write → `layout` event at every page, p50 and p99; server CPU per delivered event; RSS per open feed. Then 10,000
 * idle feeds on one process: RSS per feed, file descriptors, CPU a second with none writing (heartbeats). Targets:
 * p99 < 250 ms at 1,000 pages while writing 20 a second; ≤ 20 KB of RSS per idle feed.
 */

const PAGES = Number(process.env.BENCH_VIEWERS ?? 1000);
const IDLE_FEEDS = Number(process.env.BENCH_IDLE_FEEDS ?? 10_000);
const WRITES_PER_SECOND = 20;
const WRITE_SECONDS = Number(process.env.BENCH_VIEWER_SECONDS ?? 10);
const FEEDS_PER_TOKEN = 16;
const BUS = process.env.BENCH_FEED_BUS;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const arrival = arrivalWaiter();

/** A page: when each revision's `layout` event reached it. */
async function openPage(url: string, token: string): Promise<{ seen: Map<number, number>; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`feed: ${response.status} ${await response.text()}`);
  const seen = new Map<number, number>();
  void readEvents(response, (block, now) => {
    if (!block.startsWith('event: layout')) return;
    const id = /^id: (\d+)$/m.exec(block)?.[1];
    if (id) {
      seen.set(Number(id), now);
      arrival.wake();
    }
  });
  return { seen, close: () => controller.abort() };
}

const fdCount = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ViewerFigures {
  pages: number;
  writes: number;
  p50: number;
  p99: number;
  lost: number;
  cpuPerDeliveredEventUs: number;
  kbPerOpenFeed: number;
  idle: { feeds: number; kbPerFeed: number; fds: number; cpuMsPerSecond: number };
  bus: string;
  /** Cores the bench's own 1,000 readers used while the writes ran (they share the machine with the servers). */
  readerCores: number;
  serverCores: number;
}

export async function measureViewers(): Promise<ViewerFigures | null> {
  return withThrowawayDatabase('canvas_viewers', async (databaseUrl) => {
    const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-viewers-'));
    const children: ChildProcess[] = [];
    try {
      const { token: writer, chatRuns } = await seed({ kind: 'postgres', url: databaseUrl }, []);
      const store = await openStore({ kind: 'postgres', url: databaseUrl });
      const readers: string[] = [];
      for (let index = 0; index < Math.ceil(Math.max(PAGES, IDLE_FEEDS) / FEEDS_PER_TOKEN); index += 1)
        readers.push((await benchToken(store, { name: `page-${index}`, kind: 'backend', role: 'viewer' })).secret);
      await store.close();
      const servers: Array<{ url: string; pid: number }> = [];
      for (const name of ['a', 'b']) {
        const started = await startPostgresServe({
          databaseUrl: databaseUrl,
          work,
          name,
          extra: BUS ? ['--feed-bus', BUS] : [],
        });
        children.push(started.child);
        servers.push({ url: started.url, pid: started.child.pid! });
      }
      const feedPath = `/api/v2/projects/bench/canvases/${writeCanvas(0)}/events`;
      const rssBefore = servers.map((server) => rssMegabytes(server.pid));
      const pages: Array<Awaited<ReturnType<typeof openPage>>> = [];
      for (let index = 0; index < PAGES; index += 1) {
        const server = servers[index % 2]!;
        const token = readers[Math.floor(index / FEEDS_PER_TOKEN)]!;
        pages.push(await openPage(`${server.url}${feedPath}`, token));
      }
      // Each page says where it is once (presence), as a page does when it opens.
      await Promise.all(
        readers.slice(0, Math.ceil(PAGES / FEEDS_PER_TOKEN)).map((token, index) =>
          fetch(`${servers[index % 2]!.url}/api/v2/projects/bench/canvases/${writeCanvas(0)}/presence`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ selection: [], cursor: { x: index, y: 0 } }),
          }).then((response) => response.text()),
        ),
      );
      await settle(1000);
      const rssOpen = servers.map((server) => rssMegabytes(server.pid));

      const headers = { ...mcpHeaders(writer), 'x-agent-run-id': chatRuns[0]! };
      const cpuBefore = servers.reduce((sum, server) => sum + cpuMillis(server.pid), 0);
      // The pages are read in this process, on the same two cores as the servers: what they cost is said beside.
      const readersBefore = process.cpuUsage();
      const sent = new Map<number, number>();
      const writes = WRITES_PER_SECOND * WRITE_SECONDS;
      const started = performance.now();
      for (let revision = 0; revision < writes; revision += 1) {
        // A steady rate: each write leaves at its slot, whatever the last one took.
        const slot = started + (revision * 1000) / WRITES_PER_SECOND;
        const wait = slot - performance.now();
        if (wait > 0) await settle(wait);
        sent.set(revision + 1, performance.now());
        const response = await fetch(`${servers[0]!.url}/mcp`, {
          method: 'POST',
          headers,
          body: createNodeBody(0, revision),
        });
        await response.text();
      }
      await arrival.until(() => pages.every((page) => page.seen.has(writes)), 10_000);
      const cpuWriting = servers.reduce((sum, server) => sum + cpuMillis(server.pid), 0) - cpuBefore;
      const readersUsed = process.cpuUsage(readersBefore);
      const readerCpuShare = (readersUsed.user + readersUsed.system) / 1000 / (performance.now() - started);
      const samples: number[] = [];
      let lost = 0;
      for (const page of pages)
        for (const [revision, at] of sent) {
          const seen = page.seen.get(revision);
          if (seen === undefined) lost += 1;
          else samples.push(seen - at);
        }
      for (const page of pages) page.close();
      await settle(1000);

      // 10,000 idle feeds on one process.
      const single = servers[1]!;
      const idleBefore = { rss: rssMegabytes(single.pid), fds: fdCount(single.pid) };
      const idle: Array<Awaited<ReturnType<typeof openPage>>> = [];
      for (let index = 0; index < IDLE_FEEDS; index += 1)
        idle.push(await openPage(`${single.url}${feedPath}`, readers[Math.floor(index / FEEDS_PER_TOKEN)]!));
      await settle(3000);
      const idleOpen = { rss: rssMegabytes(single.pid), fds: fdCount(single.pid) };
      const idleCpu = cpuMillis(single.pid);
      await settle(10_000);
      const cpuMsPerSecond = (cpuMillis(single.pid) - idleCpu) / 10;
      for (const page of idle) page.close();

      return {
        pages: PAGES,
        writes,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        lost,
        cpuPerDeliveredEventUs: (cpuWriting * 1000) / (writes * PAGES),
        kbPerOpenFeed: ((rssOpen[0]! + rssOpen[1]! - rssBefore[0]! - rssBefore[1]!) * 1024) / PAGES,
        idle: {
          feeds: IDLE_FEEDS,
          kbPerFeed: ((idleOpen.rss - idleBefore.rss) * 1024) / IDLE_FEEDS,
          fds: idleOpen.fds - idleBefore.fds,
          cpuMsPerSecond,
        },
        bus: BUS ? `NATS (${BUS})` : 'PostgreSQL NOTIFY',
        readerCores: readerCpuShare,
        serverCores: cpuWriting / (WRITE_SECONDS * 1000),
      };
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
      await settle(500);
      rmSync(work, { recursive: true, force: true });
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureViewers();
  if (!figures)
    process.stdout.write(`\nPostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: the viewers bench is skipped.\n`);
  else
    process.stdout.write(
      [
        '',
        `the busiest canvas (2 servers on PostgreSQL, signals by ${figures.bus}): ${figures.pages} pages, ${WRITES_PER_SECOND} writes a second for ${WRITE_SECONDS} s`,
        `  write → event at every page: p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms (target < 250 ms); ${figures.lost} of ${figures.writes * figures.pages} events not seen within 10 s`,
        `  server CPU ${figures.cpuPerDeliveredEventUs.toFixed(1)} µs per delivered event; RSS ${figures.kbPerOpenFeed.toFixed(1)} KB per open feed; the servers used ${figures.serverCores.toFixed(2)} cores and the pages' readers (this process, same machine) ${figures.readerCores.toFixed(2)} of the 2`,
        `  ${figures.idle.feeds} idle feeds on one process: ${figures.idle.kbPerFeed.toFixed(1)} KB of RSS each (target ≤ 20 KB), ${figures.idle.fds} file descriptors, ${figures.idle.cpuMsPerSecond.toFixed(1)} ms of CPU a second (heartbeats)`,
        '',
      ].join('\n'),
    );
}
