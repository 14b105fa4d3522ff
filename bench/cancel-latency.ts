import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CanvasNode, type NodeRun } from '../src/contract/index.js';
import { SYSTEM_WRITE } from '../src/store/edit-authorization.js';
import { openStore, sqliteFileIn, type StoreLocation } from '../src/store/store.js';
import { ROOT, startProcess } from './processes.js';
import { benchToken } from './workload.js';

/**
 * How long a cancel takes to stop a running run (the target: within 100 ms when the run executes in the process that
 * receives the cancel, within 1 s when it executes in a `canvas-mcp worker` process). Each sample: submit a run of the
 * local provider (60 s long), wait until it is running, POST …/cancel, then poll GET …/runs/{id} until the record says
 * `cancelled`. The figure is an upper bound on "the worker saw the AbortSignal": it also holds the worker's write of
 * the outcome and the poll interval. The baseline, measured in the same run, is one poll round trip.
 * BENCH_CANCEL_SAMPLES sets the samples per setup (default 20).
 */

const SAMPLES = Number(process.env.BENCH_CANCEL_SAMPLES ?? 20);
const POSTGRES_URL = process.env.CANVAS_MCP_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PROJECT = 'bench';
const CANVAS = 'runs';
/** Runs are started by a person who may edit the canvas: the bench's token acts for this project editor. */
const BENCH_PERSON = { issuer: 'bench', subject: 'bench-editor' };

interface Setup {
  name: string;
  budgetMs: number;
  database: 'sqlite' | 'postgres';
  separateWorker: boolean;
}

interface Result {
  setup: string;
  budgetMs: number;
  samples: number[];
  pollMs: number[];
}

/** A fresh schema in the local PostgreSQL, or undefined when it is unreachable. */
async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const schema = `bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
  } catch {
    return undefined;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

async function seed(location: StoreLocation): Promise<string> {
  const store = await openStore(location);
  await store.projects.createWorkspace(PROJECT);
  await store.projects.createProject(PROJECT, PROJECT);
  await store.projects.createCanvas(PROJECT, CANVAS, false);
  for (let index = 0; index < SAMPLES; index += 1) {
    const node = CanvasNode.parse({
      id: `frame-${index}`,
      type: 'imageGenNode',
      position: { x: index * 300, y: 0 },
      data: { prompt: `frame ${index}`, size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
    });
    await store.writes.createNode(
      { projectId: PROJECT, canvasId: CANVAS, baseRevision: index, clientSaveId: null, authorization: SYSTEM_WRITE },
      node,
    );
  }
  await store.projects.addMember(PROJECT, BENCH_PERSON, 'editor');
  const { secret } = await benchToken(store, {
    name: 'bench',
    kind: 'backend',
    role: 'editor',
    projects: [PROJECT],
    actor: BENCH_PERSON,
  });
  await store.close();
  return secret;
}

async function measureSetup(setup: Setup, work: string): Promise<Result> {
  const dataDir = join(work, setup.name.replace(/\W+/g, '-'));
  mkdirSync(dataDir);
  const postgres = setup.database === 'postgres' ? await postgresSchema() : undefined;
  if (setup.database === 'postgres' && !postgres) throw new Error(`PostgreSQL at ${POSTGRES_URL} went away`);
  const location: StoreLocation = postgres
    ? { kind: 'postgres', url: postgres.url }
    : { kind: 'sqlite', file: sqliteFileIn(dataDir) };
  const storeArgs = location.kind === 'postgres' ? ['--database-url', location.url] : [];
  const common = ['--data', dataDir, '--run-duration-ms', '60000', '--log-level', 'warn', ...storeArgs];
  const children: ChildProcess[] = [];
  try {
    const token = await seed(location);
    const server = await startProcess(
      [
        'dist/cli/main.js',
        'serve',
        '--port',
        '0',
        '--no-seed-demo',
        '--rate-limit',
        '0',
        '--workers',
        setup.separateWorker ? '0' : '1',
        ...common,
      ],
      join(dataDir, 'server.log'),
    );
    children.push(server.child);
    if (setup.separateWorker) {
      const worker = await startProcess(
        ['dist/cli/main.js', 'worker', '--workers', '1', ...common],
        join(dataDir, 'worker.log'),
        {
          ready: /canvas-mcp worker running/,
        },
      );
      children.push(worker.child);
    }
    const api = `${server.url}/api/v2/projects/${PROJECT}/canvases/${CANVAS}`;
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-service-actor-issuer': BENCH_PERSON.issuer,
      'x-service-actor-subject': BENCH_PERSON.subject,
    };
    const timedGet = async (runId: string): Promise<{ run: NodeRun; ms: number }> => {
      const started = performance.now();
      const response = await fetch(`${api}/runs/${runId}`, { headers });
      const run = (await response.json()) as NodeRun;
      return { run, ms: performance.now() - started };
    };

    const samples: number[] = [];
    const pollMs: number[] = [];
    for (let index = 0; index < SAMPLES; index += 1) {
      const submitted = await fetch(`${api}/nodes/frame-${index}/runs`, { method: 'POST', headers });
      if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}: ${await submitted.text()}`);
      const runId = ((await submitted.json()) as NodeRun).run_id;
      for (let polled = await timedGet(runId); polled.run.status !== 'running'; polled = await timedGet(runId)) {
        if (polled.run.status !== 'queued') throw new Error(`run ${runId} is ${polled.run.status} before the cancel`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const requested = performance.now();
      const cancel = await fetch(`${api}/runs/${runId}/cancel`, { method: 'POST', headers });
      const answer = (await cancel.json()) as { status: string };
      if (answer.status !== 'cancel_requested') throw new Error(`cancel answered ${JSON.stringify(answer)}`);
      for (;;) {
        const polled = await timedGet(runId);
        pollMs.push(polled.ms);
        if (polled.run.status === 'cancelled') break;
        if (polled.run.status !== 'cancel_requested' && polled.run.status !== 'running') {
          throw new Error(`run ${runId} ended ${polled.run.status}, expected cancelled`);
        }
        if (performance.now() - requested > 10_000) throw new Error(`run ${runId} was not cancelled within 10 s`);
      }
      samples.push(performance.now() - requested);
    }
    return { setup: setup.name, budgetMs: setup.budgetMs, samples, pollMs };
  } finally {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    await postgres?.drop();
  }
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const ms = (value: number) => value.toFixed(1);

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-cancel-bench-'));
  const probe = await postgresSchema();
  await probe?.drop();
  if (!probe) process.stdout.write(`PostgreSQL at ${POSTGRES_URL} is unreachable: its setups are SKIPPED.\n`);
  const setups: Setup[] = [
    { name: 'same process, SQLite', budgetMs: 100, database: 'sqlite', separateWorker: false },
    { name: 'worker process, SQLite', budgetMs: 1000, database: 'sqlite', separateWorker: true },
    ...(probe
      ? ([
          { name: 'same process, PostgreSQL', budgetMs: 100, database: 'postgres', separateWorker: false },
          { name: 'worker process, PostgreSQL', budgetMs: 1000, database: 'postgres', separateWorker: true },
        ] as const)
      : []),
  ];
  const results: Result[] = [];
  try {
    for (const setup of setups) {
      process.stdout.write(`cancel latency: ${setup.name}…\n`);
      results.push(await measureSetup(setup, work));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const output = [
    `cancel → record says cancelled, ${SAMPLES} samples per setup, node ${process.version}`,
    '',
    '| setup | budget ms | p50 ms | p95 ms | max ms | max ÷ budget | poll round trip p50 ms (baseline) | p50 ÷ poll |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((result) => {
      const p50 = percentile(result.samples, 0.5);
      const max = Math.max(...result.samples);
      const poll = percentile(result.pollMs, 0.5);
      return `| ${result.setup} | ${result.budgetMs} | ${ms(p50)} | ${ms(percentile(result.samples, 0.95))} | ${ms(max)} | ${(max / result.budgetMs).toFixed(2)} | ${ms(poll)} | ${(p50 / poll).toFixed(1)}× |`;
    }),
  ].join('\n');
  process.stdout.write(`\n${output}\n`);
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  writeFileSync(join(ROOT, '.bench', 'cancel-latency.md'), `${output}\n`);
  writeFileSync(join(ROOT, '.bench', 'cancel-latency.json'), JSON.stringify(results, null, 2));
}

await main();
