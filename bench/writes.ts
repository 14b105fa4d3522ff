import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { countRoundTrips } from './pg-round-trips.js';
import { ROOT, startPostgresServe, startProcess } from './processes.js';
import { announceAlarms, compareWithRecorded } from './recorded.js';
import { POSTGRES_ADMIN_URL, withThrowawayDatabase } from './throwaway-database.js';
import {
  WRITE_CANVASES,
  WRITE_CANVAS_FILL,
  createNodeBody,
  format,
  getCanvasBody,
  mcpHeaders,
  measure,
  seed,
  writeCanvas,
  type Measurement,
  WARMUP,
} from './workload.js';

/**
 * `npm run bench` (writes): create_canvas_node through /mcp on the real server (built, embedded SQLite,
 * synchronous=FULL, default log level), against the least a durable revision-checked create can cost
 * (bench/baselines/bare-write.ts), in one run:
 *
 * - sequential: one writer, one request at a time: CPU per create and rate, against the bare write;
 * - 16 writers on 16 canvases at once (group commit): the rate against the bare write's sequential rate;
 * - on PostgreSQL (when reachable, in a database of its own): 16 writers across 2 server processes.
 *
 * Afterwards every canvas's revision must be at least the creates acknowledged on it (nothing acknowledged is
 * missing) and at most those sent (a request cut off when a measurement ends may or may not have landed).
 * BENCH_DURATION (seconds per measurement, default 10) shortens a run; BENCH_WRITES_ONLY=sequential|concurrent|postgres runs one;
 * BENCH_NODE_FLAGS passes Node flags to our servers (e.g. `--trace-gc`), BENCH_CPU_PROF=DIR profiles them; BENCH_KEEP
 * keeps their logs and data.
 */

const BARE_WRITE = 'bare node:http + SQLite write';
const CONCURRENT_WRITERS = 16;
/**
 * Seconds of load before each measurement: at least 5. A server's first seconds under load include V8 optimizing the
 * request path (a server on PostgreSQL, at half the rate, was still compiling 150-390 ms a second for its first ten
 * seconds), and CPU per create is meant as the steady state that sizes a deployment.
 */
const WRITES_WARMUP = Math.max(WARMUP, 5);
const only = process.env.BENCH_WRITES_ONLY;

interface Writer {
  label: string;
  url: string;
  pid: number;
  token: string;
  chatRuns: string[];
}

/** Per write canvas: creates sent, and creates acknowledged (answered 200 without a tool error). */
interface Tally {
  sent: number[];
  acked: number[];
}

const newTally = (): Tally => ({ sent: [], acked: [] });

function acknowledge(tally: Tally, canvas: number, status: number, body: string): void {
  if (status === 200 && !body.includes('"isError":true')) tally.acked[canvas] = (tally.acked[canvas] ?? 0) + 1;
}

/** Sends creates one after another, moving to the next canvas when one is filled (a canvas holds 20,000 nodes). */
function sequentialCreates(writer: Writer, tally: Tally): autocannon.Options['requests'] {
  const rotates = writer.label !== BARE_WRITE;
  const { sent } = tally;
  if (sent.length === 0) sent.push(0);
  return [
    {
      setupRequest(request) {
        if (rotates && sent.at(-1)! >= WRITE_CANVAS_FILL) {
          if (sent.length === WRITE_CANVASES)
            throw new Error(
              `${writer.label}: more than ${WRITE_CANVASES * WRITE_CANVAS_FILL} creates; raise WRITE_CANVASES`,
            );
          sent.push(0);
        }
        const canvas = sent.length - 1;
        const revision = sent[canvas]!;
        sent[canvas] = revision + 1;
        return {
          ...request,
          body: createNodeBody(canvas, revision),
          headers: { ...request.headers, 'x-agent-run-id': writer.chatRuns[canvas] ?? '' },
        };
      },
      // One connection, one request at a time: the answer is for the canvas written last.
      onResponse: (status, body) => acknowledge(tally, sent.length - 1, status, body),
    },
  ];
}

/** One writer on one canvas, one request at a time. */
function canvasCreates(writer: Writer, tally: Tally, canvas: number): autocannon.Options['requests'] {
  return [
    {
      setupRequest(request) {
        const revision = tally.sent[canvas] ?? 0;
        tally.sent[canvas] = revision + 1;
        return {
          ...request,
          body: createNodeBody(canvas, revision),
          headers: { ...request.headers, 'x-agent-run-id': writer.chatRuns[canvas] ?? '' },
        };
      },
      onResponse: (status, body) => acknowledge(tally, canvas, status, body),
    },
  ];
}

async function landedRevision(writer: Writer, canvas: number): Promise<number> {
  if (writer.label === BARE_WRITE)
    return ((await (await fetch(`${writer.url}/revision`)).json()) as { revision: number }).revision;
  const response = await fetch(`${writer.url}/mcp`, {
    method: 'POST',
    headers: mcpHeaders(writer.token),
    body: getCanvasBody(writeCanvas(canvas)),
  });
  const text = await response.text();
  const layout = (
    JSON.parse(text) as { result: { structuredContent: { layout: { revision: number; nodes: unknown[] } } } }
  ).result.structuredContent.layout;
  if (layout.nodes.length !== layout.revision)
    throw new Error(
      `${writer.label}: ${writeCanvas(canvas)} has ${layout.nodes.length} nodes at revision ${layout.revision}`,
    );
  return layout.revision;
}

async function checkLanded(writer: Writer, tally: Tally): Promise<void> {
  for (const [canvas, sent] of tally.sent.entries()) {
    const acked = tally.acked[canvas] ?? 0;
    const revision = await landedRevision(writer, canvas);
    if (revision < acked || revision > sent)
      throw new Error(
        `${writer.label}: ${writeCanvas(canvas)} at revision ${revision}, with ${acked} creates acknowledged of ${sent} sent`,
      );
  }
}

/** One writer's creates, one request at a time, tallied per canvas. */
function measureSequential(writer: Writer, tally: Tally): Promise<Measurement> {
  return measure(
    writer.label,
    'create_canvas_node sequential',
    writer.pid,
    {
      url: `${writer.url}/mcp`,
      method: 'POST',
      connections: 1,
      pipelining: 1,
      headers: mcpHeaders(writer.token || undefined),
      requests: sequentialCreates(writer, tally),
    },
    WRITES_WARMUP,
  );
}

/**
 * BENCH_CPU_PROF=DIR writes a V8 CPU profile of each server into DIR (read it with Chrome's DevTools); BENCH_NODE_FLAGS
 * adds Node flags.
 */
function serverNodeFlags(): string[] {
  return [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
  ];
}

async function ourServer(work: string, name: string, extra: string[], children: ChildProcess[]): Promise<Writer> {
  const dataDir = join(work, name);
  mkdirSync(dataDir);
  const seeded = await seed(dataDir, []);
  const started = await startProcess(
    [
      ...serverNodeFlags(),
      'dist/cli/main.js',
      'serve',
      '--data',
      dataDir,
      '--port',
      '0',
      '--rate-limit',
      '1000000',
      '--no-seed-demo',
      '--workers',
      '0',
      ...extra,
    ],
    join(work, `${name}.log`),
  );
  children.push(started.child);
  return {
    label: extra.length === 0 ? 'canvas-mcp' : `canvas-mcp (${extra.join(' ')})`,
    url: started.url,
    pid: started.child.pid!,
    ...seeded,
  };
}

/** 16 writers on 16 canvases across two server processes on one PostgreSQL database, created for the run and dropped. */
async function postgresWriters(work: string, children: ChildProcess[]): Promise<Measurement[]> {
  const rows = await withThrowawayDatabase('canvas_bench', async (databaseUrl) => {
    const seeded = await seed({ kind: 'postgres', url: databaseUrl }, []);
    const servers: Writer[] = [];
    for (const name of ['pg-a', 'pg-b']) {
      const started = await startPostgresServe({
        databaseUrl: databaseUrl,
        work,
        name,
        nodeFlags: serverNodeFlags(),
        // As the SQLite servers here: the limiter runs, at a rate no writer reaches.
        rateLimit: 1_000_000,
      });
      children.push(started.child);
      servers.push({ label: 'canvas-mcp ×2 on PostgreSQL', url: started.url, pid: started.child.pid!, ...seeded });
    }
    // One server, one writer at a time: the same sequential creates as on SQLite.
    const [first] = servers;
    const sequential = { ...first!, label: 'canvas-mcp on PostgreSQL' };
    process.stdout.write(`create_canvas_node, sequential: ${sequential.label}…\n`);
    const sequentialTally = newTally();
    const measuredSequential = await measureSequential(sequential, sequentialTally);
    await checkLanded(sequential, sequentialTally);
    process.stdout.write(
      `create_canvas_node, ${CONCURRENT_WRITERS} writers on ${CONCURRENT_WRITERS} canvases across 2 servers on PostgreSQL…\n`,
    );
    // The writers go on from where the sequential run left each canvas.
    const tally: Tally = { sent: [...sequentialTally.sent], acked: [...sequentialTally.acked] };
    const measured = await measure(
      servers[0]!.label,
      `create_canvas_node ${CONCURRENT_WRITERS} writers`,
      servers.map((server) => server.pid),
      Array.from({ length: CONCURRENT_WRITERS }, (_, canvas) => {
        const server = servers[canvas % servers.length]!;
        return {
          url: `${server.url}/mcp`,
          method: 'POST' as const,
          connections: 1,
          pipelining: 1,
          headers: mcpHeaders(server.token),
          requests: canvasCreates(server, tally, canvas),
        };
      }),
      WRITES_WARMUP,
    );
    await checkLanded(servers[0]!, tally);
    for (const server of servers) process.kill(server.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    return [measuredSequential, measured];
  });
  if (!rows) process.stdout.write(`PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: its scenario is skipped.\n`);
  return rows ?? [];
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-writes-'));
  const children: ChildProcess[] = [];
  const results: Measurement[] = [];
  try {
    const bareStarted = await startProcess(
      ['--import', 'tsx', 'bench/baselines/bare-write.ts', work],
      join(work, 'bare-write.log'),
    );
    children.push(bareStarted.child);
    const bare: Writer = {
      label: BARE_WRITE,
      url: bareStarted.url,
      pid: bareStarted.child.pid!,
      token: '',
      chatRuns: [],
    };
    const ours = await ourServer(work, 'ours', [], children);
    const sequentialWriters =
      only === 'concurrent'
        ? []
        : [
            bare,
            ours,
            ...(only ? [] : [await ourServer(work, 'normal', ['--sqlite-synchronous', 'normal'], children)]),
          ];
    for (const writer of sequentialWriters) {
      process.stdout.write(`create_canvas_node, sequential: ${writer.label}…\n`);
      const tally = newTally();
      results.push(await measureSequential(writer, tally));
      await checkLanded(writer, tally);
    }
    if (only !== 'sequential') {
      if (only === 'concurrent') {
        process.stdout.write(`create_canvas_node, sequential: ${bare.label}…\n`);
        results.push(await measureSequential(bare, newTally()));
      }
      // A fresh server: the sequential run filled its first canvases.
      const fresh = await ourServer(work, 'concurrent', [], children);
      process.stdout.write(
        `create_canvas_node, ${CONCURRENT_WRITERS} writers on ${CONCURRENT_WRITERS} canvases: ${fresh.label}…\n`,
      );
      const tally = newTally();
      results.push(
        await measure(
          fresh.label,
          `create_canvas_node ${CONCURRENT_WRITERS} writers`,
          fresh.pid,
          Array.from({ length: CONCURRENT_WRITERS }, (_, canvas) => ({
            url: `${fresh.url}/mcp`,
            method: 'POST' as const,
            connections: 1,
            pipelining: 1,
            headers: mcpHeaders(fresh.token),
            requests: canvasCreates(fresh, tally, canvas),
          })),
          WRITES_WARMUP,
        ),
      );
      await checkLanded(fresh, tally);
    }
    if (!only || only === 'postgres') results.push(...(await postgresWriters(work, children)));
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  const bareRow = results.find((row) => row.target === BARE_WRITE)!;
  const table = [
    '| scenario | server | req/s | p50 ms | p99 ms | server CPU ms/call | errors | req/s vs bare sequential | CPU/call: ours ÷ bare |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (row) =>
        `| ${row.scenario} | ${row.target} | ${format(row.requestsPerSecond, 0)} | ${row.p50} | ${row.p99} | ${format(row.cpuPerCallMs, 3)} | ${row.errors} | ${format(row.requestsPerSecond / bareRow.requestsPerSecond)}× | ${format(row.cpuPerCallMs / bareRow.cpuPerCallMs)}× |`,
    ),
  ];
  // PostgreSQL against SQLite, the same creates: server CPU per create, sequential and 16 writers.
  const row = (target: string, scenario: string) =>
    results.find((each) => each.target === target && each.scenario === scenario);
  const ratio = (pgTarget: string, scenario: string) => {
    const postgres = row(pgTarget, scenario);
    const sqlite = row('canvas-mcp', scenario);
    return postgres && sqlite ? format(postgres.cpuPerCallMs / sqlite.cpuPerCallMs) : 'n/a';
  };
  const trips = only && only !== 'postgres' ? null : await countRoundTrips();
  const versus = [
    '',
    `PostgreSQL create CPU ÷ SQLite create CPU: sequential ${ratio('canvas-mcp on PostgreSQL', 'create_canvas_node sequential')}× (target ≤ 1.2), ${CONCURRENT_WRITERS} writers ${ratio('canvas-mcp ×2 on PostgreSQL', `create_canvas_node ${CONCURRENT_WRITERS} writers`)}× (target ≤ 1.5; PostgreSQL's own CPU not counted)`,
    ...(trips
      ? [
          '',
          'PostgreSQL round trips per request (bench/pg-round-trips.ts):',
          '| request | round trips | statements |',
          '|---|---:|---:|',
          ...Object.entries(trips).map(([label, count]) => `| ${label} | ${count.roundTrips} | ${count.statements} |`),
        ]
      : []),
  ];
  // Held against the recorded figures (bench/recorded.ts): ours ÷ the bare write, and PostgreSQL ÷ SQLite.
  const cpuOver = (top: ReturnType<typeof row>, bottom: ReturnType<typeof row>) =>
    top && bottom ? top.cpuPerCallMs / bottom.cpuPerCallMs : null;
  const sequential = 'create_canvas_node sequential';
  const writers = `create_canvas_node ${CONCURRENT_WRITERS} writers`;
  const held = [
    { name: 'sequential create: ours ÷ bare write', value: cpuOver(row('canvas-mcp', sequential), bareRow) },
    {
      name: 'sequential create: PostgreSQL ÷ SQLite',
      value: cpuOver(row('canvas-mcp on PostgreSQL', sequential), row('canvas-mcp', sequential)),
    },
    {
      name: `${CONCURRENT_WRITERS} writers: PostgreSQL ÷ SQLite`,
      value: cpuOver(row('canvas-mcp ×2 on PostgreSQL', writers), row('canvas-mcp', writers)),
    },
  ].flatMap((each) =>
    each.value === null ? [] : [{ name: each.name, value: each.value, better: 'lower' as const, headline: true }],
  );
  const comparison = compareWithRecorded('writes', held);
  const output = [
    `${new Date().toISOString().slice(0, 10)}: duration ${Number(process.env.BENCH_DURATION ?? 10)}s per measurement, node ${process.version}; every acknowledged create landed`,
    '',
    ...table,
    ...versus,
    '',
    comparison.table,
  ].join('\n');
  process.stdout.write(`\n${output}\n`);
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  writeFileSync(join(ROOT, '.bench', 'writes.md'), `${output}\n`);
  if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
  announceAlarms(comparison.alarms);
}

await main();
