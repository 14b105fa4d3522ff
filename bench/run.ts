import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startProcess } from './processes.js';
import { announceAlarms, compareWithRecorded } from './recorded.js';
import {
  DURATION,
  WARMUP,
  fetchSnapshot,
  format,
  getCanvasBody,
  mcpHeaders,
  measure,
  seed,
  type Era,
  type Measurement,
} from './workload.js';

/**
 * `npm run bench`: the real server (built, embedded SQLite store, default log level) next to three baselines serving
 * the same get_canvas result, measured in one run with autocannon. At 50 nodes both protocol eras are measured for our
 * server and the SDK v2 handler: the measurement that decides whether to adopt createMcpHandler. Prints req/s, p50,
 * p99, server CPU per call, RSS, and ratios against the baselines. BENCH_DURATION (seconds per measurement, default 10)
 * shortens a run. Writes are measured by bench/writes.ts.
 */

const CONNECTIONS = 16;
const SIZES = [50, 1000, 10_000] as const;
const SDK_V2 = 'SDK v2 createMcpHandler';
const FLOOR = 'node:http floor (prebuilt reply)';
/**
 * Adopt the SDK v2 handler if its CPU per get_canvas call at 50 nodes is within this factor of ours
 * (docs/performance.md, "Protocol eras and the SDK v2 handler").
 */
const ADOPTION_FACTOR = 1.5;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-'));
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const children: ChildProcess[] = [];
  const results: Measurement[] = [];
  try {
    process.stdout.write(`seeding canvases of ${SIZES.join(', ')} nodes…\n`);
    const { token } = await seed(dataDir, SIZES);
    const ours = await startProcess(
      ['dist/cli/main.js', 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '1000000', '--no-seed-demo'],
      join(work, 'server.log'),
    );
    children.push(ours.child);

    for (const size of SIZES) {
      const canvasId = `c${size}`;
      const snapshot = await fetchSnapshot(ours.url, canvasId, token, size);
      const snapshotFile = join(work, `${canvasId}.json`);
      writeFileSync(snapshotFile, JSON.stringify(snapshot));
      const baselines = [
        { name: 'bare node:http', script: 'bench/baselines/bare-http.ts' },
        { name: 'SDK stateless example', script: 'bench/baselines/sdk-stateless.ts' },
        { name: SDK_V2, script: 'bench/baselines/sdk-v2-handler.ts' },
        // What node:http itself costs to answer with these bytes: the least any handler on it can cost.
        { name: FLOOR, script: 'bench/baselines/floor-http.ts' },
      ];
      const targets = [{ name: 'canvas-mcp', url: ours.url, pid: ours.child.pid!, token }];
      for (const baseline of baselines) {
        const started = await startProcess(
          ['--import', 'tsx', baseline.script, snapshotFile],
          join(work, `${baseline.name}-${size}.log`),
        );
        children.push(started.child);
        await fetchSnapshot(started.url, canvasId, undefined, size);
        targets.push({ name: baseline.name, url: started.url, pid: started.child.pid!, token: '' });
      }
      const eraRuns: Array<{ era: Era; scenario: string; targets: typeof targets }> = [
        { era: 'legacy', scenario: `get_canvas ${size} nodes`, targets },
      ];
      if (size === SIZES[0]) {
        const modernTargets = targets.filter((target) => target.name === 'canvas-mcp' || target.name === SDK_V2);
        for (const target of modernTargets)
          await fetchSnapshot(target.url, canvasId, target.token || undefined, size, 'modern');
        eraRuns.push({ era: 'modern', scenario: `get_canvas ${size} nodes, 2026-07-28`, targets: modernTargets });
      }
      for (const { era, scenario, targets: measured } of eraRuns) {
        for (const target of measured) {
          process.stdout.write(`${scenario}: ${target.name}…\n`);
          results.push(
            await measure(target.name, scenario, target.pid, {
              url: `${target.url}/mcp`,
              method: 'POST',
              connections: CONNECTIONS,
              headers: mcpHeaders(target.token || undefined, era),
              body: getCanvasBody(canvasId, era),
            }),
          );
        }
      }
      for (const target of targets.slice(1)) process.kill(target.pid);
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  }

  const table = [
    '| scenario | server | req/s | p50 ms | p99 ms | server CPU ms/call | RSS MB before → after | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (row) =>
        `| ${row.scenario} | ${row.target} | ${format(row.requestsPerSecond, 0)} | ${row.p50} | ${row.p99} | ${format(row.cpuPerCallMs, 3)} | ${format(row.rssBeforeMb, 0)} → ${format(row.rssAfterMb, 0)} | ${row.errors} |`,
    ),
  ];
  const ratios = SIZES.map((size) => {
    const scenario = `get_canvas ${size} nodes`;
    const of = (target: string) => results.find((row) => row.scenario === scenario && row.target === target)!;
    const ours = of('canvas-mcp');
    const sdk = of('SDK stateless example');
    const bare = of('bare node:http');
    const v2 = of(SDK_V2);
    return `| ${scenario} | ${format(ours.requestsPerSecond / sdk.requestsPerSecond)}× | ${format(ours.requestsPerSecond / bare.requestsPerSecond)}× | ${format(sdk.cpuPerCallMs / ours.cpuPerCallMs)}× | ${format(bare.cpuPerCallMs / ours.cpuPerCallMs)}× | ${format(v2.cpuPerCallMs / ours.cpuPerCallMs)}× |`;
  });
  // The decision: adopt the SDK v2 handler if, at 50 nodes, it costs at most 1.5× our CPU per call.
  const decision = [`get_canvas ${SIZES[0]} nodes`, `get_canvas ${SIZES[0]} nodes, 2026-07-28`].map((scenario) => {
    const ours = results.find((row) => row.scenario === scenario && row.target === 'canvas-mcp')!;
    const v2 = results.find((row) => row.scenario === scenario && row.target === SDK_V2)!;
    const ratio = v2.cpuPerCallMs / ours.cpuPerCallMs;
    return `| ${scenario} | ${format(ours.cpuPerCallMs, 3)} | ${format(v2.cpuPerCallMs, 3)} | ${format(ratio)}× | ${ratio <= ADOPTION_FACTOR ? 'adopt the SDK' : 'keep ours'} |`;
  });
  // The headline ratios, held against the recorded ones (bench/recorded.ts): CPU per call of the baselines ÷ ours.
  const cpuRatio = (scenario: string, baseline: string) => {
    const ours = results.find((row) => row.scenario === scenario && row.target === 'canvas-mcp')!;
    const other = results.find((row) => row.scenario === scenario && row.target === baseline)!;
    return other.cpuPerCallMs / ours.cpuPerCallMs;
  };
  const comparison = compareWithRecorded('get_canvas', [
    ...SIZES.flatMap((size) => [
      {
        name: `${size} nodes: bare ÷ ours`,
        value: cpuRatio(`get_canvas ${size} nodes`, 'bare node:http'),
        better: 'higher' as const,
        headline: true,
      },
      {
        name: `${size} nodes: SDK v2 ÷ ours`,
        value: cpuRatio(`get_canvas ${size} nodes`, SDK_V2),
        better: 'higher' as const,
        headline: true,
      },
    ]),
    {
      name: `${SIZES[0]} nodes, 2026-07-28: SDK v2 ÷ ours`,
      value: cpuRatio(`get_canvas ${SIZES[0]} nodes, 2026-07-28`, SDK_V2),
      better: 'higher',
      headline: true,
    },
  ]);
  const output = [
    `${new Date().toISOString().slice(0, 10)}: duration ${DURATION}s per measurement after ${WARMUP}s warm-up, ${CONNECTIONS} connections for get_canvas, node ${process.version}`,
    '',
    ...table,
    '',
    '| scenario | req/s vs SDK example | req/s vs bare handler | CPU/call: SDK ÷ ours | CPU/call: bare ÷ ours | CPU/call: SDK v2 ÷ ours |',
    '|---|---:|---:|---:|---:|---:|',
    ...ratios,
    '',
    `| SDK v2 createMcpHandler vs ours | ours CPU ms/call | SDK v2 CPU ms/call | SDK v2 ÷ ours | verdict (adopt within ${ADOPTION_FACTOR}×) |`,
    '|---|---:|---:|---:|---|',
    ...decision,
    '',
    comparison.table,
  ].join('\n');
  process.stdout.write(`\n${output}\n`);
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  writeFileSync(join(ROOT, '.bench', 'results.md'), `${output}\n`);
  writeFileSync(join(ROOT, '.bench', 'results.json'), JSON.stringify(results, null, 2));
  rmSync(work, { recursive: true, force: true });
  announceAlarms(comparison.alarms);
}

await main();
