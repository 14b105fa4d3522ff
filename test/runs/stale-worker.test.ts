import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { createAssets } from '../../src/assets/assets.js';
import { createRunEngine, type RunEngine } from '../../src/runs/engine.js';
import type { RunProvider } from '../../src/runs/providers/provider.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { createLogger } from '../../src/shared/logger.js';
import type { Store } from '../../src/store/store.js';
import { STORE_TARGETS, openTestStore } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * A worker that stalled past its lease (paused, starved) while another finished its run must not touch that run's files
 * when it resumes. Outputs are staged per attempt and published only by the completion that still holds the lease.
 */

function provider(name: string, delayMs: number, executions: string[]): RunProvider {
  return {
    name,
    async execute(job) {
      executions.push(`${name}:${job.attempt}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return {
        assets: job.outputs.map((output) => ({
          ...output,
          mimeType: 'application/json',
          bytes: Buffer.from(JSON.stringify({ by: name })),
        })),
      };
    },
  };
}

describe.each(STORE_TARGETS)('a stale worker: $name', (target) => {
  describe.skipIf(!target.available)('two engines on one store', () => {
    let store: Store;
    let close: () => Promise<void>;
    const engines: RunEngine[] = [];

    beforeAll(async () => {
      ({ store, close } = await openTestStore(target));
      await store.projects.createWorkspace('w');
      await store.projects.createProject('p', 'w');
      await store.projects.createCanvas('p', 'c', false);
      const node = CanvasNode.parse({
        id: 'script',
        type: 'scriptNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'a storm' },
      });
      await store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        node,
      );
    });
    afterAll(async () => {
      for (const engine of engines) await engine.stop();
      await close();
    });

    it('publishes nothing after losing its lease: the files are those of the worker that completed the run', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-stale-'));
      const assets = createAssets({ dataDir, store, storage: 'local' });
      const executions: string[] = [];
      const logger = createLogger('silent');
      // The stalled worker's log says when it has given up its completion (and discarded what it staged).
      const stalledLines: string[] = [];
      const stalledLog = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          stalledLines.push(chunk.toString());
          callback();
        },
      });
      // The stalled worker: its lease runs out (no heartbeat before it does) while its provider is still busy.
      const stalled = createRunEngine({
        store,
        assets,
        logger: createLogger('warn', stalledLog),
        workers: 1,
        leaseMs: 300,
        heartbeatMs: 60_000,
        pollMs: 20,
        providers: () => provider('stalled', 1500, executions),
      });
      engines.push(stalled);
      await stalled.start();
      const { run } = await submitNodeRun(store, {
        projectId: 'p',
        canvasId: 'c',
        nodeId: 'script',
        idempotencyKey: null,
        triggeredBy: { kind: 'system', name: 'test' },
      });
      await waitFor(
        async () => executions,
        (list) => list.includes('stalled:1'),
      );

      const healthy = createRunEngine({
        store,
        assets,
        logger,
        workers: 1,
        leaseMs: 300,
        pollMs: 20,
        providers: () => provider('healthy', 10, executions),
      });
      engines.push(healthy);
      await healthy.start();
      const done = await waitFor(
        () => store.runs.getRun('p', 'c', run.run_id),
        (current) => current?.status === 'succeeded',
        5000,
      );
      expect(executions).toContain('healthy:2');
      const assetId = done!.outputs[0]!.asset_id;
      expect(JSON.parse(readFileSync(join(dataDir, 'assets', assetId), 'utf8'))).toEqual({ by: 'healthy' });
      // Published files are private like the rest of the data dir.
      expect((statSync(join(dataDir, 'assets', assetId)).mode & 0o777).toString(8)).toBe('600');

      // The stalled worker finishes later: its completion is refused and its staged file is discarded.
      await waitFor(
        async () => stalledLines.join(''),
        (text) => text.includes('lease lost before completion'),
        10_000,
      );
      expect(JSON.parse(readFileSync(join(dataDir, 'assets', assetId), 'utf8'))).toEqual({ by: 'healthy' });
      expect(await store.runs.getRun('p', 'c', run.run_id)).toMatchObject({ status: 'succeeded', attempt: 2 });
      expect(readdirSync(join(dataDir, 'assets', '.staging'))).toEqual([]);
    }, 20_000);
  });
});
