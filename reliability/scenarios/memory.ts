import { join } from 'node:path';
import autocannon from 'autocannon';
import { rssMegabytes } from '../../bench/process-stats.js';
import { agentHeaders, demoCredentials, serve, stop, type Row } from '../harness.js';
import { scenarioStore } from '../stores.js';

/** Resident memory across many get_canvas calls: after a warm-up, it must not keep growing. */
export async function memory(calls: number): Promise<Row> {
  const store = await scenarioStore('sqlite');
  const served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'));
  try {
    const { token } = demoCredentials(served.logFile);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_canvas', arguments: { project_id: 'demo', canvas_id: 'main' } } });
    const fire = (amount: number) =>
      autocannon({ url: `${served.url}/mcp`, method: 'POST', headers: agentHeaders(token), body, connections: 16, amount });
    const warmup = Math.max(1000, Math.round(calls / 10));
    await fire(warmup);
    const before = rssMegabytes(served.child.pid!);
    const result = await fire(calls);
    const after = rssMegabytes(served.child.pid!);
    const drift = after - before;
    const failed = result.errors + result.non2xx;
    return {
      scenario: `RSS over ${calls} get_canvas calls`,
      store: 'sqlite',
      fiveXX: failed,
      rssDriftMb: Math.round(drift * 10) / 10,
      notes: `${before.toFixed(0)} MB after ${warmup} warm-up calls, ${after.toFixed(0)} MB after ${calls} more`,
      pass: failed === 0 && drift < 40,
    };
  } finally {
    await stop(served.child);
    store.destroy();
  }
}
