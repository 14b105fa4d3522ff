import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import type { Store } from '../../src/store/store.js';
import { STORE_TARGETS, openTestStore } from '../support/stores.js';

/** Leases, recovery and completion on both stores, with a clock the test moves. */

describe.each(STORE_TARGETS)('run claims: $name', (target) => {
  describe.skipIf(!target.available)('with a controlled clock', () => {
    let store: Store;
    let close: () => Promise<void>;
    let now = 1_800_000_000_000;
    let nodeCounter = 0;

    beforeAll(async () => {
      ({ store, close } = await openTestStore(target, { clock: () => now }));
      await store.projects.createWorkspace('w');
      await store.projects.createProject('p', 'w');
      await store.projects.createCanvas('p', 'c', false);
    });
    afterAll(async () => close());

    async function submit(maxAttempts = 3): Promise<string> {
      nodeCounter += 1;
      const canvas = await store.layout.readCanvas('p', 'c');
      const node = CanvasNode.parse({
        id: `img-${nodeCounter}`,
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'p', size: '1K', imageUrl: null, aspectRatio: '1:1' },
      });
      await store.writes.createNode(
        {
          projectId: 'p',
          canvasId: 'c',
          baseRevision: canvas!.revision,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        node,
      );
      const { run } = await submitNodeRun(store, {
        projectId: 'p',
        canvasId: 'c',
        nodeId: node.id,
        idempotencyKey: null,
        triggeredBy: { kind: 'system', name: 'test' },
        maxAttempts,
      });
      return run.run_id;
    }

    async function claim(workerId: string, runId: string) {
      // Claim until the run under test is ours (older queued runs of earlier tests are finished first).
      for (;;) {
        const row = await store.claims.claimNext(workerId, 1000);
        if (!row) throw new Error('nothing to claim');
        if (row.id === runId) return { jobId: runId, workerId, attempt: row.attempt };
        await store.claims.complete(
          { jobId: row.id, workerId, attempt: row.attempt },
          { status: 'cancelled', charged: 0 },
        );
      }
    }

    it('gives a run to exactly one claimer, and bumps its attempt', async () => {
      const runId = await submit();
      const lease = await claim('worker-a', runId);
      expect(lease.attempt).toBe(1);
      expect(await store.claims.claimNext('worker-b', 1000)).toBeUndefined();
      expect(await store.runs.getRun('p', 'c', runId)).toMatchObject({
        status: 'running',
        attempt: 1,
        started_at: expect.any(String),
      });
      expect(await store.claims.complete(lease, { status: 'succeeded', outputs: [], assets: [], charged: 1 })).toBe(
        true,
      );
    });

    it('queues an expired run again; the old lease can neither heartbeat nor complete it', async () => {
      const runId = await submit();
      const stale = await claim('worker-a', runId);
      now += 5_000;
      const recovery = await store.claims.recoverExpired();
      expect(recovery.requeued).toContain(runId);
      expect(await store.claims.heartbeat(stale, 1000, { percent: 50, message: 'late' })).toBe('lost');
      const fresh = await claim('worker-b', runId);
      expect(fresh.attempt).toBe(2);
      expect(await store.claims.complete(stale, { status: 'succeeded', outputs: [], assets: [], charged: 1 })).toBe(
        false,
      );
      expect(await store.claims.complete(fresh, { status: 'succeeded', outputs: [], assets: [], charged: 1 })).toBe(
        true,
      );
      expect(await store.runs.getRun('p', 'c', runId)).toMatchObject({ status: 'succeeded', attempt: 2 });
    });

    it('fails a run whose worker was lost on every attempt, so it never stays stuck', async () => {
      const runId = await submit(2);
      for (const worker of ['a', 'b']) {
        await claim(`worker-${worker}`, runId);
        now += 5_000;
        await store.claims.recoverExpired();
      }
      expect(await store.runs.getRun('p', 'c', runId)).toMatchObject({
        status: 'failed',
        error: { code: 'worker_lost' },
        cost: { charged: 0 },
      });
    });

    it('heartbeats renew the lease, carry progress, and report a cancel request', async () => {
      const runId = await submit();
      const lease = await claim('worker-a', runId);
      now += 800;
      expect(await store.claims.heartbeat(lease, 1000, { percent: 40, message: 'drawing' })).toBe('running');
      now += 800;
      expect((await store.claims.recoverExpired()).requeued).not.toContain(runId);
      expect(await store.runs.getRun('p', 'c', runId)).toMatchObject({ progress: { percent: 40, message: 'drawing' } });
      const cancel = await store.runs.requestCancel('p', 'c', runId);
      expect(cancel).toMatchObject({
        status: 'cancel_requested',
        run: { status: 'cancel_requested' },
        signalWorker: true,
      });
      expect(await store.claims.heartbeat(lease, 1000, null)).toBe('cancel_requested');
      expect(await store.claims.complete(lease, { status: 'cancelled', charged: 0.4 })).toBe(true);
      expect(await store.runs.getRun('p', 'c', runId)).toMatchObject({ status: 'cancelled', cost: { charged: 0.4 } });
      expect((await store.projects.getProject('p'))?.spentCredits).toBeGreaterThanOrEqual(0.4);
    });

    it('a run may still succeed after a cancel request, when its work finished first', async () => {
      const runId = await submit();
      const lease = await claim('worker-a', runId);
      await store.runs.requestCancel('p', 'c', runId);
      const url = '/assets/asset_0123456789abcdef';
      const recorded = await store.claims.complete(lease, {
        status: 'succeeded',
        outputs: [{ asset_id: 'asset_0123456789abcdef', kind: 'image', url, mime_type: 'image/png' }],
        assets: [],
        charged: 1,
      });
      expect(recorded).toBe(true);
      expect(await store.runs.getRun('p', 'c', runId)).toMatchObject({
        status: 'succeeded',
        cancel_requested_at: expect.any(String),
      });
    });
  });
});
