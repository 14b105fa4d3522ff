import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Assets } from '../../src/assets/assets.js';
import { createLocalAssetStore } from '../../src/assets/local-store.js';
import { createRunEngine } from '../../src/runs/engine.js';
import type { RunProvider } from '../../src/runs/providers/provider.js';
import { createLogger } from '../../src/shared/logger.js';
import type { RunRow } from '../../src/store/run-rows.js';
import type { Store } from '../../src/store/store.js';
import { waitFor } from '../support/wait.js';

/** Unit test with a fake store: a worker survives store failures instead of dying silently. */

function row(id: string): RunRow {
  return {
    id,
    project_id: 'p',
    canvas_id: 'c',
    node_id: 'n',
    operation: 'script_generation',
    skill_id: null,
    status: 'running',
    input: '{"prompt":"x"}',
    input_hash: 'h',
    progress_percent: 0,
    progress_message: null,
    outputs: '[]',
    resources: JSON.stringify([{ asset_id: 'asset_AAAAAAAAAAAAAAAA', kind: 'json', status: 'pending', url: null }]),
    error_code: null,
    error_message: null,
    cost_estimated: 0.5,
    cost_charged: null,
    triggered_kind: 'system',
    triggered_name: null,
    idempotency_key: null,
    attempt: 1,
    max_attempts: 3,
    lease_owner: 'w',
    lease_expires_at: 0,
    created_at: 0,
    started_at: 0,
    finished_at: null,
    cancel_requested_at: null,
    updated_at: 0,
    provider: null,
    chain_id: null,
    inputs_hash: null,
    references_used: null,
  };
}

/** Outputs as files in a temporary data dir: this suite's store stands in for the database, not for the files. */
function localAssets(dataDir: string): Assets {
  const local = createLocalAssetStore(dataDir);
  return {
    writer: local,
    reader: () => local,
    inputFile: async () => null,
    bytesOf: async () => null,
    close: async () => undefined,
  };
}

describe('run engine resilience', () => {
  it('keeps working after claiming and recording fail, and records a finished run once the store answers again', async () => {
    const queue = ['run_first', 'run_second'];
    const calls = { claim: 0, complete: 0 };
    const completed: string[] = [];
    const store = {
      claims: {
        async claimNext() {
          calls.claim += 1;
          if (calls.claim === 1) throw new Error('database unreachable');
          const id = queue.shift();
          return id ? row(id) : undefined;
        },
        heartbeat: async () => 'running' as const,
        async complete(lease: { jobId: string }) {
          calls.complete += 1;
          if (calls.complete === 1) throw new Error('database unreachable');
          completed.push(lease.jobId);
          return true;
        },
        release: async () => undefined,
        recoverExpired: async () => ({ requeued: [], failed: [], cancelled: [] }),
      },
      runs: { onRunEvent: async () => async () => undefined },
    } as unknown as Store;
    const provider: RunProvider = {
      name: 'instant',
      execute: async (job) => ({
        assets: job.outputs.map((output) => ({ ...output, mimeType: 'application/json', bytes: Buffer.from('{}') })),
      }),
    };
    const engine = createRunEngine({
      store,
      providers: () => provider,
      assets: localAssets(mkdtempSync(join(tmpdir(), 'canvas-mcp-assets-'))),
      logger: createLogger('silent'),
      workers: 1,
      pollMs: 10,
    });
    await engine.start();
    try {
      await waitFor(
        async () => completed,
        (ids) => ids.includes('run_second'),
      );
    } finally {
      await engine.stop();
    }
    // The first claim failed; the first completion failed once and was recorded on a retry within its lease (a run
    // finished during a short outage is not executed again); the second ran.
    expect(calls.claim).toBeGreaterThanOrEqual(3);
    expect(calls.complete).toBe(3);
    expect(completed).toEqual(['run_first', 'run_second']);
  });
});
