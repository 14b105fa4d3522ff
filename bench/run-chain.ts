import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { ROOT, startProcess } from './processes.js';

/**
 * `npm run bench` (part): "Run from here". A serve process on SQLite with one run worker and the local provider at no
 * delay; a canvas holds a chain of 20 script nodes (each with an edge to the next), run whole once. Each round then
 * edits node 16 and runs the chain again from node 1: 15 nodes are cached, 5 run. The figure is the chain's overhead:
 * the time from the request to the chain's end, less the time its 5 runs spent executing. The baseline, in the same
 * process: the same 5 nodes run one after another as runs of one node each, from request to end. Target: under 1 s of
 * overhead.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const ROUNDS = Number(process.env.BENCH_CHAIN_ROUNDS ?? 5);
const LENGTH = 20;
const CHANGED_FROM = 15;
const OWNER = { issuer: 'https://idp.bench', subject: 'owner' };
const CANVAS = '/api/v2/projects/demo/canvases/chain';

interface Chain {
  chain_id: string;
  status: string;
  steps: Array<{ node_id: string; status: string; run_id: string | null }>;
}
interface Run {
  status: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface ChainFigures {
  rounds: number;
  cached: number;
  ran: number;
  /** Medians over the rounds, in ms. */
  chainTotal: number;
  executing: number;
  overhead: number;
  bareTotal: number;
}

const median = (values: number[]) =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? NaN;
const nodeId = (index: number) => `s${String(index + 1).padStart(2, '0')}`;

export async function measureRunChain(): Promise<ChainFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-chain-'));
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '1', '--run-duration-ms', '0'],
    join(dataDir, 'serve.log'),
  );
  try {
    const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
    await store.projects.addMember('demo', OWNER, 'owner');
    await store.projects.createCanvas('demo', 'chain', false);
    const secret = await store.sessions.createLoginLink(OWNER, { expiresInMs: 600_000 });
    await store.close();
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: secret }),
    });
    const headers = {
      cookie: login.headers.get('set-cookie')!.split(';', 1)[0]!,
      origin: url,
      'x-requested-by': 'canvas-mcp',
      'content-type': 'application/json',
    };
    const call = async <T>(
      method: string,
      path: string,
      body?: unknown,
      extra: Record<string, string> = {},
    ): Promise<T> => {
      const response = await fetch(`${url}${CANVAS}${path}`, {
        method,
        headers: { ...headers, ...extra },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300)
        throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    };
    let revision = 0;
    const nodes = Array.from({ length: LENGTH }, (_, index) => ({
      op: 'create_node',
      node: {
        id: nodeId(index),
        type: 'scriptNode',
        position: { x: index * 300, y: 0 },
        data: { prompt: `beat ${index + 1}` },
      },
    }));
    const edges = Array.from({ length: LENGTH - 1 }, (_, index) => ({
      op: 'create_edge',
      edge: { id: `e${index}`, source: nodeId(index), target: nodeId(index + 1) },
    }));
    revision = (
      await call<{ revision: number }>('POST', '/changes', {
        base_revision: revision,
        operations: [...nodes, ...edges],
      })
    ).revision;

    let keys = 0;
    const untilEnded = async (chainId: string): Promise<Chain> => {
      for (;;) {
        const chain = await call<Chain>('GET', `/chains/${chainId}`);
        if (chain.status !== 'active') return chain;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const runChain = async () =>
      untilEnded(
        (
          await call<Chain>('POST', `/nodes/${nodeId(0)}/runs/downstream`, undefined, {
            'idempotency-key': `chain-${(keys += 1)}`,
          })
        ).chain_id,
      );
    const untilRunEnded = async (runId: string): Promise<Run> => {
      for (;;) {
        const run = await call<Run>('GET', `/runs/${runId}`);
        if (run.status === 'succeeded' || run.status === 'failed' || run.status === 'cancelled') return run;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const editTail = async (round: number) => {
      for (let index = CHANGED_FROM; index < LENGTH; index += 1) {
        revision = (
          await call<{ revision: number }>('PATCH', `/nodes/${nodeId(index)}`, {
            base_revision: revision,
            set: { data: { prompt: `beat ${index + 1}, take ${round}` } },
          })
        ).revision;
      }
    };

    const first = await runChain();
    if (first.status !== 'succeeded') throw new Error(`the first chain ended ${first.status}`);
    const chainTotals: number[] = [];
    const executing: number[] = [];
    const overheads: number[] = [];
    const bareTotals: number[] = [];
    let cached = 0;
    let ran = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Baseline: the 5 changed nodes, each run alone one after another.
      await editTail(round * 2);
      const bareStart = performance.now();
      for (let index = CHANGED_FROM; index < LENGTH; index += 1) {
        const run = await call<{ run_id: string }>('POST', `/nodes/${nodeId(index)}/runs`, undefined, {
          'idempotency-key': `bare-${round}-${index}`,
        });
        await untilRunEnded(run.run_id);
      }
      bareTotals.push(performance.now() - bareStart);

      await editTail(round * 2 + 1);
      const started = performance.now();
      const chain = await runChain();
      const total = performance.now() - started;
      if (chain.status !== 'succeeded') throw new Error(`round ${round}: the chain ended ${chain.status}`);
      const runs = await Promise.all(
        chain.steps.filter((step) => step.run_id).map((step) => call<Run>('GET', `/runs/${step.run_id}`)),
      );
      const busy = runs.reduce((sum, run) => sum + (Date.parse(run.finished_at!) - Date.parse(run.started_at!)), 0);
      cached = chain.steps.filter((step) => step.status === 'cached').length;
      ran = runs.length;
      chainTotals.push(total);
      executing.push(busy);
      overheads.push(total - busy);
    }
    return {
      rounds: ROUNDS,
      cached,
      ran,
      chainTotal: median(chainTotals),
      executing: median(executing),
      overhead: median(overheads),
      bareTotal: median(bareTotals),
    };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureRunChain();
  process.stdout.write(
    [
      '',
      `run from here (a ${LENGTH}-node chain, ${figures.cached} cached and ${figures.ran} run, medians of ${figures.rounds} rounds):`,
      '| chain, request → end ms | runs executing ms | overhead ms | baseline: the same runs alone, one after another ms |',
      '|---:|---:|---:|---:|',
      `| ${figures.chainTotal.toFixed(0)} | ${figures.executing.toFixed(0)} | ${figures.overhead.toFixed(0)} | ${figures.bareTotal.toFixed(0)} |`,
      '',
    ].join('\n'),
  );
}
