import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { rssMegabytes } from '../../bench/process-stats.js';
import { agentHeaders, demoCredentials, serve, stop, type Row } from '../harness.js';
import { scenarioStore } from '../stores.js';

/**
 * Memory across many get_canvas calls: after a warm-up, what stays reachable must not keep growing. The measure is
 * the retained heap (the size of a heap snapshot, which V8 takes after a full garbage collection), not RSS: RSS
 * settles at a plateau whose height varies from run to run (the allocator keeps what the heap once used), by up to
 * ~100 MB here with nothing retained. RSS is reported beside it.
 */

/** Writes a heap snapshot (SIGUSR2, --heapsnapshot-signal) and answers its size in MB once written. */
async function retainedHeapMb(pid: number, dir: string): Promise<number> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (let attempt = 0; attempt < 600; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const written = readdirSync(dir).find((file) => file.endsWith('.heapsnapshot') && !before.has(file));
    if (!written) continue;
    // Written when its size stops changing.
    const size = statSync(join(dir, written)).size;
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (statSync(join(dir, written)).size === size && size > 0) return size / (1024 * 1024);
  }
  throw new Error('no heap snapshot within 60 s');
}

export async function memory(calls: number): Promise<Row> {
  const store = await scenarioStore('sqlite');
  const snapshots = mkdtempSync(join(tmpdir(), 'canvas-mcp-heap-'));
  const served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'), [
    '--heapsnapshot-signal=SIGUSR2',
    `--diagnostic-dir=${snapshots}`,
  ]);
  try {
    const { token } = await demoCredentials(served.logFile);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_canvas', arguments: { project_id: 'demo', canvas_id: 'main' } },
    });
    const fire = (amount: number) =>
      autocannon({
        url: `${served.url}/mcp`,
        method: 'POST',
        headers: agentHeaders(token),
        body,
        connections: 16,
        amount,
      });
    const warmup = Math.max(1000, Math.round(calls / 10));
    await fire(warmup);
    const pid = served.child.pid!;
    const heapBefore = await retainedHeapMb(pid, snapshots);
    const rssBefore = rssMegabytes(pid);
    const result = await fire(calls);
    const rssAfter = rssMegabytes(pid);
    const heapAfter = await retainedHeapMb(pid, snapshots);
    const heapDrift = heapAfter - heapBefore;
    const failed = result.errors + result.non2xx;
    return {
      scenario: `memory over ${calls} get_canvas calls`,
      store: 'sqlite',
      fiveXX: failed,
      heapDriftMb: Math.round(heapDrift * 10) / 10,
      rssDriftMb: Math.round((rssAfter - rssBefore) * 10) / 10,
      notes:
        `retained heap ${heapBefore.toFixed(1)} MB after ${warmup} warm-up calls, ${heapAfter.toFixed(1)} MB after ${calls} more; ` +
        `RSS ${rssBefore.toFixed(0)} MB, then ${rssAfter.toFixed(0)} MB`,
      // A leak of 50 bytes per call shows as 5 MB over 100,000 calls.
      pass: failed === 0 && heapDrift < Math.max(2, (calls * 50) / (1024 * 1024)),
    };
  } finally {
    await stop(served.child);
    store.destroy();
    rmSync(snapshots, { recursive: true, force: true });
  }
}
