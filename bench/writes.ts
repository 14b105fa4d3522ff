import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { ROOT, startProcess } from './processes.js';
import { WRITE_CANVASES, WRITE_CANVAS_FILL, createNodeBody, fetchSnapshot, format, mcpHeaders, measure, seed, writeCanvas, type Measurement } from './workload.js';

/**
 * `npm run bench` (writes; issue 19, items 4 and 5): create_canvas_node through /mcp on the real server (built,
 * embedded SQLite, synchronous=FULL, default log level), against the least a durable revision-checked create can cost
 * (bench/baselines/bare-write.ts), in one run:
 *
 * - sequential: one writer, one request at a time: CPU per create and rate, against the bare write;
 * - 16 writers on 16 canvases at once (group commit): the rate against the bare write's sequential rate.
 *
 * Afterwards every canvas's revision must equal the creates sent to it: nothing acknowledged is missing.
 * BENCH_DURATION (seconds per measurement, default 10) shortens a run; BENCH_WRITES_ONLY=sequential|concurrent runs one.
 */

const BARE_WRITE = 'bare node:http + SQLite write';
const CONCURRENT_WRITERS = 16;
const only = process.env.BENCH_WRITES_ONLY;

interface Writer {
  label: string;
  url: string;
  pid: number;
  token: string;
  chatRuns: string[];
}

/** Sends creates one after another, moving to the next canvas when one is filled (a canvas holds 20,000 nodes). */
function sequentialCreates(writer: Writer, sent: number[]): autocannon.Options['requests'] {
  const rotates = writer.label !== BARE_WRITE;
  return [
    {
      setupRequest(request) {
        if (rotates && sent.at(-1)! >= WRITE_CANVAS_FILL) {
          if (sent.length === WRITE_CANVASES) throw new Error(`${writer.label}: more than ${WRITE_CANVASES * WRITE_CANVAS_FILL} creates; raise WRITE_CANVASES`);
          sent.push(0);
        }
        const canvas = sent.length - 1;
        const revision = sent[canvas]!;
        sent[canvas] = revision + 1;
        return { ...request, body: createNodeBody(canvas, revision), headers: { ...request.headers, 'x-agent-run-id': writer.chatRuns[canvas] ?? '' } };
      },
    },
  ];
}

/** One writer on one canvas, one request at a time. */
function canvasCreates(writer: Writer, sent: number[], canvas: number): autocannon.Options['requests'] {
  return [
    {
      setupRequest(request) {
        const revision = sent[canvas] ?? 0;
        sent[canvas] = revision + 1;
        return { ...request, body: createNodeBody(canvas, revision), headers: { ...request.headers, 'x-agent-run-id': writer.chatRuns[canvas] ?? '' } };
      },
    },
  ];
}

async function landedRevision(writer: Writer, canvas: number, expected: number): Promise<number> {
  if (writer.label === BARE_WRITE) return ((await (await fetch(`${writer.url}/revision`)).json()) as { revision: number }).revision;
  const written = await fetchSnapshot(writer.url, writeCanvas(canvas), writer.token, expected);
  return (written.layout as { revision: number }).revision;
}

async function checkLanded(writer: Writer, sent: number[]): Promise<void> {
  for (const [canvas, count] of sent.entries()) {
    const revision = await landedRevision(writer, canvas, count);
    if (revision !== count) throw new Error(`${writer.label}: ${writeCanvas(canvas)} at revision ${revision}, expected ${count}`);
  }
}

async function ourServer(work: string, name: string, extra: string[], children: ChildProcess[]): Promise<Writer> {
  const dataDir = join(work, name);
  mkdirSync(dataDir);
  const seeded = await seed(dataDir, []);
  // BENCH_CPU_PROF=DIR writes a V8 CPU profile of each server into DIR (read it with Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const started = await startProcess(
    [...profile, 'dist/cli/main.js', 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '1000000', '--no-seed-demo', '--workers', '0', ...extra],
    join(work, `${name}.log`),
  );
  children.push(started.child);
  return { label: name === 'ours' ? 'canvas-mcp' : `canvas-mcp (${extra.join(' ')})`, url: started.url, pid: started.child.pid!, ...seeded };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-writes-'));
  const children: ChildProcess[] = [];
  const results: Measurement[] = [];
  try {
    const bareStarted = await startProcess(['--import', 'tsx', 'bench/baselines/bare-write.ts', work], join(work, 'bare-write.log'));
    children.push(bareStarted.child);
    const bare: Writer = { label: BARE_WRITE, url: bareStarted.url, pid: bareStarted.child.pid!, token: '', chatRuns: [] };
    const ours = await ourServer(work, 'ours', [], children);
    const sequentialWriters = only === 'concurrent' ? [] : [bare, ours, ...(only ? [] : [await ourServer(work, 'normal', ['--sqlite-synchronous', 'normal'], children)])];
    for (const writer of sequentialWriters) {
      process.stdout.write(`create_canvas_node, sequential: ${writer.label}…\n`);
      const sent = [0];
      results.push(
        await measure(writer.label, 'create_canvas_node sequential', writer.pid, {
          url: `${writer.url}/mcp`,
          method: 'POST',
          connections: 1,
          pipelining: 1,
          headers: mcpHeaders(writer.token || undefined),
          requests: sequentialCreates(writer, sent),
        }),
      );
      await checkLanded(writer, sent);
    }
    if (only !== 'sequential') {
      if (only === 'concurrent') {
        process.stdout.write(`create_canvas_node, sequential: ${bare.label}…\n`);
        results.push(await measure(bare.label, 'create_canvas_node sequential', bare.pid, { url: `${bare.url}/mcp`, method: 'POST', connections: 1, headers: mcpHeaders(), requests: sequentialCreates(bare, [0]) }));
      }
      // A fresh server: the sequential run filled its first canvases.
      const fresh = await ourServer(work, 'concurrent', [], children);
      process.stdout.write(`create_canvas_node, ${CONCURRENT_WRITERS} writers on ${CONCURRENT_WRITERS} canvases: ${fresh.label}…\n`);
      const sent: number[] = [];
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
            requests: canvasCreates(fresh, sent, canvas),
          })),
        ),
      );
      await checkLanded(fresh, sent);
    }
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
  const output = [`duration ${Number(process.env.BENCH_DURATION ?? 10)}s per measurement, node ${process.version}; every acknowledged create landed`, '', ...table].join('\n');
  process.stdout.write(`\n${output}\n`);
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  writeFileSync(join(ROOT, '.bench', 'writes.md'), `${output}\n`);
  rmSync(work, { recursive: true, force: true });
}

await main();
