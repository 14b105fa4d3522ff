import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/store.js';
import { startPostgresServe } from './processes.js';
import { arrivalWaiter, readEvents } from './sse-reader.js';
import { benchToken, createNodeBody, mcpHeaders, seed, writeCanvas } from './workload.js';
import { withThrowawayDatabase } from './throwaway-database.js';

/**
 * `npm run bench` (part): how many processes hear of one write. Four `serve` processes on one PostgreSQL, one page's
 * feed open on the written canvas on the first, one on another canvas on each of the others, an agent writing through
 * the second; each process's /metrics says what it received: with NOTIFY every process that watches any canvas hears
 * every write (deliveries = writes × such processes); with the NATS bus (`--feed-bus`, when NATS answers at
 * BENCH_NATS_URL) only the process with a feed on the written canvas does.
 */

const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const PROCESSES = 4;
const WRITES = 100;

const arrival = arrivalWaiter();

async function natsAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(NATS_URL);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) || 4222 }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** What a process has heard of layout writes so far, from its /metrics. */
async function layoutSignalsHeard(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const notify = /^canvas_mcp_store_notifications_received_total\{channel="canvas_mcp_layout"\} (\d+)/m.exec(text);
  const bus = /^canvas_mcp_feed_bus_messages_total\{direction="received",kind="layout"\} (\d+)/m.exec(text);
  return Number(notify?.[1] ?? bus?.[1] ?? 0);
}

/** Deliveries per write on a database of its own (null when PostgreSQL is not reachable). */
function deliveriesPerWrite(bus: string | null): Promise<{ perWrite: number; byProcess: number[] } | null> {
  return withThrowawayDatabase(`canvas_deliveries_${bus ? 'nats' : 'notify'}`, async (databaseUrl) => {
    const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-deliveries-'));
    const children: ChildProcess[] = [];
    try {
      const { token, chatRuns } = await seed({ kind: 'postgres', url: databaseUrl }, []);
      const store = await openStore({ kind: 'postgres', url: databaseUrl });
      const { secret: reader } = await benchToken(store, { name: 'page', kind: 'backend', role: 'viewer' });
      await store.close();
      const servers: string[] = [];
      for (let index = 0; index < PROCESSES; index += 1) {
        const started = await startPostgresServe({
          databaseUrl: databaseUrl,
          work,
          name: `s${index}`,
          extra: bus ? ['--feed-bus', bus] : [],
        });
        children.push(started.child);
        servers.push(started.url);
      }
      // Every process serves some page: the measured one on the written canvas, on the first; one on another canvas on
      // each of the others (a process with no page at all listens to nothing, on either bus).
      const controller = new AbortController();
      const openPage = (server: string, canvas: number) =>
        fetch(`${server}/api/v2/projects/bench/canvases/${writeCanvas(canvas)}/events`, {
          headers: { authorization: `Bearer ${reader}`, accept: 'text/event-stream' },
          signal: controller.signal,
        });
      const response = await openPage(servers[0]!, 0);
      for (const [index, server] of servers.entries())
        if (index > 0) void (await openPage(server, 1)).body?.getReader();
      let last = 0;
      void readEvents(response, (block) => {
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        if (block.startsWith('event: layout') && id) {
          last = Number(id);
          arrival.wake();
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = await Promise.all(servers.map(layoutSignalsHeard));
      const headers = { ...mcpHeaders(token), 'x-agent-run-id': chatRuns[0]! };
      for (let revision = 0; revision < WRITES; revision += 1)
        await (await fetch(`${servers[1]}/mcp`, { method: 'POST', headers, body: createNodeBody(0, revision) })).text();
      await arrival.until(() => last >= WRITES, 10_000);
      // Signals to the other processes may trail the page's event by a moment.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = await Promise.all(servers.map(layoutSignalsHeard));
      controller.abort();
      const byProcess = after.map((total, index) => total - before[index]!);
      return { perWrite: byProcess.reduce((sum, count) => sum + count, 0) / WRITES, byProcess };
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      rmSync(work, { recursive: true, force: true });
    }
  });
}

export async function measureDeliveries(): Promise<Array<{ signals: string; perWrite: number; byProcess: number[] }>> {
  const notify = await deliveriesPerWrite(null);
  if (!notify) return [];
  const rows = [{ signals: 'PostgreSQL NOTIFY', ...notify }];
  const nats = (await natsAnswers()) ? await deliveriesPerWrite(NATS_URL) : null;
  if (nats) rows.push({ signals: `NATS (${NATS_URL})`, ...nats });
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureDeliveries();
  process.stdout.write(
    rows.length === 0
      ? '\nPostgreSQL is not reachable: deliveries per write not measured.\n'
      : [
          '',
          `layout signals heard per write, ${PROCESSES} processes on one PostgreSQL, a page's feed on the written canvas on the first and on another canvas on each of the others, ${WRITES} writes through the second:`,
          '| signals | deliveries per write | heard by each process |',
          '|---|---:|---|',
          ...rows.map((row) => `| ${row.signals} | ${row.perWrite.toFixed(2)} | ${row.byProcess.join(', ')} |`),
          '',
        ].join('\n'),
  );
}
