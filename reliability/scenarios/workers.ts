import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { startProcess } from '../../bench/processes.js';
import { openDriver } from '../../src/store/store.js';
import {
  CLI,
  agentHeaders,
  demoCredentials,
  killAndStall,
  mcpCall,
  serve,
  sleep,
  stopWorkersAndServer,
  type Row,
  type Served,
} from '../harness.js';
import { scenarioStore } from '../stores.js';

/**
 * Run workers die (SIGKILL) and stall past their lease (SIGSTOP … SIGCONT) while they run paid generations: every
 * run ends, none is charged twice, the project's spend is the sum of what runs were charged, and every published
 * file is the one its record describes.
 */

const RunRow = z.object({
  id: z.string(),
  status: z.string(),
  cost_estimated: z.coerce.number(),
  cost_charged: z.coerce.number().nullable(),
  outputs: z.string(),
});
const AssetRow = z.object({ id: z.string(), run_id: z.string(), byte_size: z.coerce.number() });

export async function workerFaults(kind: 'sqlite' | 'postgres', runs: number): Promise<Row> {
  const store = await scenarioStore(kind);
  const executionLog = join(store.dataDir, 'executions.log');
  writeFileSync(executionLog, '');
  let served: Served | undefined;
  const workers: ChildProcess[] = [];
  const workerArgs = [
    CLI,
    'worker',
    ...store.flags,
    '--workers',
    '2',
    '--run-duration-ms',
    '1500',
    '--run-lease-ms',
    '1000',
    '--log-level',
    'warn',
  ];
  const startWorker = async (index: number) =>
    (
      await startProcess(workerArgs, join(store.dataDir, `worker-${index}.log`), {
        env: { CANVAS_MCP_LOCAL_EXECUTION_LOG: executionLog },
        ready: /worker running/,
      })
    ).child;
  try {
    served = await serve([...store.flags, '--workers', '0', '--enable-hidden-tools'], join(store.dataDir, 'serve.log'));
    const { token, chatRun } = await demoCredentials(served.logFile);
    const headers = agentHeaders(token, chatRun);
    const ids = { project_id: 'demo', canvas_id: 'main' };
    for (let index = 0; index < runs; index += 1) {
      const revision = ((await mcpCall(served.url, headers, 'get_canvas', ids)).content?.layout as { revision: number })
        .revision;
      await mcpCall(served.url, headers, 'create_canvas_node', {
        ...ids,
        base_revision: revision,
        node: {
          id: `gen-${index}`,
          type: 'imageGenNode',
          position: { x: index * 300, y: 900 },
          data: { prompt: `shot ${index}`, size: '1K', imageUrl: null, aspectRatio: '16:9', count: 2 },
        },
      });
    }
    workers.push(await startWorker(0), await startWorker(1));
    for (let index = 0; index < runs; index += 1)
      await mcpCall(served.url, headers, 'submit_canvas_node_run', {
        ...ids,
        node_id: `gen-${index}`,
        idempotency_key: `gen-${index}`,
      });

    await killAndStall(workers, startWorker, { killAfterMs: 700, stallAfterMs: 300 });

    const driver = await openDriver(store.location);
    try {
      const deadline = Date.now() + 90_000;
      let rows = z
        .array(RunRow)
        .parse(await driver.all('SELECT id, status, cost_estimated, cost_charged, outputs FROM node_runs'));
      while (rows.some((row) => !['succeeded', 'failed', 'cancelled'].includes(row.status)) && Date.now() < deadline) {
        await sleep(250);
        rows = z
          .array(RunRow)
          .parse(await driver.all('SELECT id, status, cost_estimated, cost_charged, outputs FROM node_runs'));
      }
      const unfinished = rows.filter((row) => !['succeeded', 'failed', 'cancelled'].includes(row.status)).length;
      const spent = Number((await driver.get("SELECT spent_credits FROM projects WHERE id = 'demo'"))!.spent_credits);
      const charged = rows.reduce((sum, row) => sum + (row.cost_charged ?? 0), 0);
      const overCharged = rows.filter((row) => (row.cost_charged ?? 0) > row.cost_estimated).length;
      const doubleCharged = overCharged + (Math.abs(spent - charged) > 1e-9 ? 1 : 0);
      const assets = z.array(AssetRow).parse(await driver.all('SELECT id, run_id, byte_size FROM assets'));
      const badFiles = assets.filter((asset) => {
        const file = join(store.dataDir, 'assets', asset.id);
        return !existsSync(file) || statSync(file).size !== asset.byte_size;
      }).length;
      const executions = readFileSync(executionLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(' ')[0]!);
      const perRun = new Map<string, number>();
      for (const runId of executions) perRun.set(runId, (perRun.get(runId) ?? 0) + 1);
      const doubleExecuted = [...perRun.values()].filter((count) => count > 1).length;
      const staged = readdirSync(join(store.dataDir, 'assets', '.staging')).length;
      const succeeded = rows.filter((row) => row.status === 'succeeded').length;
      return {
        scenario: `workers killed and stalled, ${runs} runs`,
        store: kind,
        acknowledged: rows.length,
        present: succeeded,
        integrity: badFiles === 0 && unfinished === 0 ? 'ok' : 'BROKEN',
        lost: unfinished,
        doubleCharged,
        doubleExecuted,
        notes: `${succeeded} succeeded; spent ${spent} = charged ${charged}; ${staged} staged files left by the killed worker`,
        pass: unfinished === 0 && doubleCharged === 0 && badFiles === 0,
      };
    } finally {
      await driver.close();
    }
  } finally {
    await stopWorkersAndServer(workers, served);
    store.destroy();
  }
}
