import { join } from 'node:path';
import { inspectCanvas } from '../canvas-integrity.js';
import { agentHeaders, demoCredentials, mcpCall, serve, sleep, stop, type Row, type Served } from '../harness.js';
import { scenarioStore } from '../stores.js';
import { lostNodes, newTally, runWriters, undeletedNodes } from '../writers.js';

/**
 * PostgreSQL restarts (fast shutdown) under write load: the server stays up, answers unavailable meanwhile, and
 * serves again by itself; the recovery time is from the database accepting connections to the first answered read.
 */
export async function databaseRestart(durationMs: number): Promise<Row> {
  const store = await scenarioStore('postgres');
  let served: Served | undefined;
  try {
    served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'));
    const { token, chatRun } = await demoCredentials(served.logFile);
    const headers = agentHeaders(token, chatRun);
    const tally = newTally();
    const writing = runWriters(
      { urls: [served.url], headers, project: 'demo', canvas: 'main', writers: 8, durationMs, deleteEvery: 4 },
      tally,
    );
    await sleep(durationMs / 3);
    store.postgres!.stop('fast');
    await sleep(500);
    store.postgres!.start();
    const back = Date.now();
    let recoveryMs = -1;
    while (Date.now() - back < 15_000) {
      const read = await mcpCall(served.url, headers, 'get_canvas', { project_id: 'demo', canvas_id: 'main' });
      if (!read.isError) {
        recoveryMs = Date.now() - back;
        break;
      }
      await sleep(25);
    }
    await writing;
    const alive = served.child.exitCode === null && served.child.signalCode === null;
    await stop(served.child);
    const facts = await inspectCanvas(store.location, 'demo', 'main');
    const missing = lostNodes(tally, facts.nodeIds);
    const undeleted = undeletedNodes(tally, facts.nodeIds);
    const lost = missing.length + undeleted.length;
    return {
      scenario: 'PostgreSQL restart mid-load',
      store: 'postgres',
      acknowledged: tally.acknowledgedWrites,
      present: tally.acknowledgedWrites - lost,
      integrity: facts.problems.length === 0 ? 'ok' : 'BROKEN',
      lost,
      fiveXX: tally.fiveXX + tally.transportErrors,
      internal: tally.internal,
      recoveryMs,
      notes: `${alive ? 'server stayed up' : 'SERVER DIED'}; ${tally.unavailable} answered unavailable while the database was away${lost ? `; missing ${missing.slice(0, 3).join(',')} undeleted ${undeleted.slice(0, 3).join(',')}` : ''}`,
      pass:
        alive &&
        lost === 0 &&
        facts.problems.length === 0 &&
        recoveryMs >= 0 &&
        recoveryMs <= 5_000 &&
        tally.internal === 0 &&
        tally.transportErrors === 0,
    };
  } finally {
    await stop(served?.child, 'SIGKILL');
    store.destroy();
  }
}
