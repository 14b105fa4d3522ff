import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import type { Store } from '../../src/store/store.js';
import { cliProcess, type ServeProcess } from '../support/cli.js';
import { STORE_TARGETS, openTestStore, type TestDatabase } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/** `canvas-mcp worker` processes on a shared store: crashes, cross-process cancels, and no double execution. */

describe.each(STORE_TARGETS)('worker processes: $name', (target) => {
  describe.skipIf(!target.available)('on a shared store', () => {
    let store: Store;
    let database: TestDatabase;
    let close: () => Promise<void>;
    let dataDir: string;
    let log: string;
    let revision = 0;
    const workers: ServeProcess[] = [];

    beforeAll(async () => {
      ({ store, database, close } = await openTestStore(target));
      dataDir =
        database.location.kind === 'sqlite'
          ? database.location.file.replace(/\/canvas\.db$/, '')
          : mkdtempSync(join(tmpdir(), 'canvas-mcp-assets-'));
      log = join(dataDir, 'executions.log');
      writeFileSync(log, '');
      await store.projects.createWorkspace('w');
      await store.projects.createProject('p', 'w');
      await store.projects.createCanvas('p', 'c', false);
    });
    afterEach(async () => {
      for (const worker of workers.splice(0)) {
        if (worker.child.exitCode === null) {
          worker.child.kill('SIGTERM');
          await worker.exit;
        }
      }
    });
    afterAll(async () => close());

    function startWorker(settings: { durationMs: number; leaseMs?: number; workers?: number }): ServeProcess {
      const storeEnv =
        database.location.kind === 'sqlite'
          ? { CANVAS_MCP_DATA_DIR: dataDir }
          : { CANVAS_MCP_DATA_DIR: dataDir, CANVAS_MCP_DATABASE_URL: database.location.url };
      const worker = cliProcess(['worker'], {
        ...storeEnv,
        CANVAS_MCP_WORKERS: String(settings.workers ?? 1),
        CANVAS_MCP_RUN_DURATION_MS: String(settings.durationMs),
        CANVAS_MCP_RUN_LEASE_MS: String(settings.leaseMs ?? 10_000),
        CANVAS_MCP_LOCAL_EXECUTION_LOG: log,
        CANVAS_MCP_LOG_LEVEL: 'warn',
      });
      workers.push(worker);
      return worker;
    }

    async function submit(): Promise<string> {
      const id = `img-${revision}`;
      const node = CanvasNode.parse({
        id,
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: id, size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
      });
      await store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: revision++, clientSaveId: null, authorization: SYSTEM_WRITE },
        node,
      );
      const { run } = await submitNodeRun(store, {
        projectId: 'p',
        canvasId: 'c',
        nodeId: id,
        idempotencyKey: null,
        triggeredBy: { kind: 'system', name: 'test' },
      });
      return run.run_id;
    }

    const executions = (runId?: string) =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line && (!runId || line.startsWith(`${runId} `)));

    it('picks up a run again when its worker is killed mid-run, and completes it once', async () => {
      const runId = await submit();
      const doomed = startWorker({ durationMs: 20_000, leaseMs: 800 });
      await doomed.waitFor(/running 1 workers/);
      await waitFor(
        () => store.runs.getRun('p', 'c', runId),
        (run) => (run?.progress.percent ?? 0) > 0,
      );
      doomed.child.kill('SIGKILL');
      await doomed.exit;

      startWorker({ durationMs: 300, leaseMs: 800 });
      const done = await waitFor(
        () => store.runs.getRun('p', 'c', runId),
        (run) => run?.status === 'succeeded',
        30_000,
      );
      expect(done).toMatchObject({ attempt: 2, cost: { charged: 0.5 } });
      expect(executions(runId)).toEqual([`${runId} 1`, `${runId} 2`]);
      const asset = await store.assets.getAsset(done!.outputs[0]!.asset_id);
      expect(asset).toMatchObject({ kind: 'image', mimeType: 'image/png' });
      expect(
        readFileSync(join(dataDir, 'assets', asset!.id))
          .subarray(1, 4)
          .toString('ascii'),
      ).toBe('PNG');
    }, 60_000);

    it('a cancel from another process reaches the running worker within a second', async () => {
      const runId = await submit();
      startWorker({ durationMs: 20_000 });
      await waitFor(
        () => store.runs.getRun('p', 'c', runId),
        (run) => (run?.progress.percent ?? 0) > 0,
      );
      const requested = Date.now();
      expect((await store.runs.requestCancel('p', 'c', runId))?.status).toBe('cancel_requested');
      const cancelled = await waitFor(
        () => store.runs.getRun('p', 'c', runId),
        (run) => run?.status === 'cancelled',
        10_000,
      );
      expect(Date.now() - requested).toBeLessThan(1000);
      expect(cancelled?.cost.charged).toBeLessThan(cancelled!.cost.estimated);
    }, 60_000);

    it.runIf(target.name === 'postgres')(
      'two worker processes never execute one run twice',
      async () => {
        const runIds: string[] = [];
        for (let index = 0; index < 30; index += 1) runIds.push(await submit());
        startWorker({ durationMs: 60, workers: 2 });
        startWorker({ durationMs: 60, workers: 2 });
        await waitFor(
          async () => Promise.all(runIds.map((runId) => store.runs.getRun('p', 'c', runId))),
          (runs) => runs.every((run) => run?.status === 'succeeded'),
          60_000,
          100,
        );
        const lines = runIds.flatMap((runId) => executions(runId));
        expect(lines).toHaveLength(30);
        expect(new Set(lines.map((line) => line.split(' ')[0])).size).toBe(30);
        expect(lines.every((line) => line.endsWith(' 1'))).toBe(true);
      },
      90_000,
    );
  });
});
