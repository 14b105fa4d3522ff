import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
 * Export workers die (SIGKILL) and stall past their lease (SIGSTOP … SIGCONT) while they encode animatics: the same job
 * machinery as runs (src/jobs/job-workers.ts), under the same faults. Every export ends, each succeeded one has
 * exactly the one file its record names (no export recorded twice), and nothing else was kept.
 */

const ExportRow = z.object({
  id: z.string(),
  status: z.string(),
  asset_id: z.string().nullable(),
  attempt: z.coerce.number(),
});
const AssetRow = z.object({ id: z.string(), byte_size: z.coerce.number(), uploaded_by: z.string().nullable() });
const ENDED = ['succeeded', 'failed', 'cancelled'];

export async function exportWorkerFaults(kind: 'sqlite' | 'postgres', exports: number): Promise<Row> {
  const store = await scenarioStore(kind);
  let served: Served | undefined;
  const workers: ChildProcess[] = [];
  const workerArgs = [
    CLI,
    'worker',
    ...store.flags,
    '--workers',
    '0',
    '--export-workers',
    '2',
    '--run-lease-ms',
    '1000',
    '--log-level',
    'warn',
  ];
  const startWorker = async (index: number) =>
    (await startProcess(workerArgs, join(store.dataDir, `export-worker-${index}.log`), { ready: /worker running/ }))
      .child;
  try {
    served = await serve(
      [
        ...store.flags,
        '--workers',
        '0',
        '--export-workers',
        '0',
        '--enable-hidden-tools',
        '--exports-per-person',
        '100',
        '--exports-per-project',
        '100',
      ],
      join(store.dataDir, 'serve.log'),
    );
    const { token, chatRun } = await demoCredentials(served.logFile);
    const headers = agentHeaders(token, chatRun);
    const ids = { project_id: 'demo', canvas_id: 'main' };
    const revision = ((await mcpCall(served.url, headers, 'get_canvas', ids)).content?.layout as { revision: number })
      .revision;
    const frames = Array.from({ length: 6 }, (_, index) => ({
      id: `shot-${index}`,
      number: String(index + 1),
      imageUrl: null,
      action: `Shot ${index + 1}`,
      durationMs: 1500,
    }));
    await mcpCall(served.url, headers, 'create_canvas_node', {
      ...ids,
      base_revision: revision,
      node: { id: 'board', type: 'storyboardNode', position: { x: 0, y: 1200 }, data: { title: 'Faults', frames } },
    });
    for (let index = 0; index < exports; index += 1) {
      const started = await mcpCall(served.url, headers, 'export_board', {
        ...ids,
        export: { kind: 'animatic', node_id: 'board', options: {} },
      });
      if (started.status !== 200 || started.isError)
        throw new Error(`export ${index} was refused: ${JSON.stringify(started.content)}`);
    }
    workers.push(await startWorker(0), await startWorker(1));

    await killAndStall(workers, startWorker, { killAfterMs: 1_500, stallAfterMs: 500 });

    const driver = await openDriver(store.location);
    try {
      const read = async () =>
        z.array(ExportRow).parse(await driver.all('SELECT id, status, asset_id, attempt FROM export_jobs'));
      const deadline = Date.now() + 120_000;
      let rows = await read();
      while (rows.some((row) => !ENDED.includes(row.status)) && Date.now() < deadline) {
        await sleep(250);
        rows = await read();
      }
      const unfinished = rows.filter((row) => !ENDED.includes(row.status)).length;
      const assets = z
        .array(AssetRow)
        .parse(await driver.all('SELECT id, byte_size, uploaded_by FROM assets WHERE uploaded_by LIKE \'%"export"%\''));
      const succeeded = rows.filter((row) => row.status === 'succeeded');
      const named = new Set(succeeded.map((row) => row.asset_id));
      // A file kept for an export that its record does not name: recorded twice, or kept by a worker that lost it.
      const strays = assets.filter((asset) => !named.has(asset.id)).length;
      const badFiles = succeeded.filter((row) => {
        const asset = assets.find((each) => each.id === row.asset_id);
        const file = join(store.dataDir, 'assets', row.asset_id ?? '');
        return !asset || !existsSync(file) || statSync(file).size !== asset.byte_size;
      }).length;
      const stagingDir = join(store.dataDir, 'assets', '.staging');
      const staged = existsSync(stagingDir) ? readdirSync(stagingDir).length : 0;
      return {
        scenario: `export workers killed and stalled, ${exports} animatics`,
        store: kind,
        acknowledged: rows.length,
        present: succeeded.length,
        integrity: badFiles === 0 && unfinished === 0 && strays === 0 ? 'ok' : 'BROKEN',
        lost: unfinished,
        doubleExecuted: strays,
        notes:
          `${succeeded.length} succeeded, ${rows.filter((row) => row.status === 'failed').length} failed; ` +
          `${rows.filter((row) => row.attempt > 1).length} taken over from a killed or stalled worker; ` +
          `${staged} staged files left by the killed worker`,
        pass: unfinished === 0 && badFiles === 0 && strays === 0,
      };
    } finally {
      await driver.close();
    }
  } finally {
    await stopWorkersAndServer(workers, served);
    store.destroy();
  }
}
