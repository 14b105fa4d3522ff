import { join } from 'node:path';
import { inspectCanvas } from '../canvas-integrity.js';
import { agentHeaders, demoCredentials, serve, sleep, stop, type Row, type Served } from '../harness.js';
import { scenarioStore } from '../stores.js';
import { lostNodes, newTally, runWriters, undeletedNodes } from '../writers.js';

/**
 * The server is killed with SIGKILL while agents write, again and again, and started again on the same data: every
 * write acknowledged before a kill is there afterwards, and the canvas is whole.
 */
export async function killRounds(rounds: number): Promise<Row> {
  const store = await scenarioStore('sqlite');
  let current: Served | undefined;
  try {
    current = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve-0.log'));
    const { token, chatRun } = await demoCredentials(current.logFile);
    const headers = agentHeaders(token, chatRun);
    const urls = [current.url];
    const tally = newTally();
    let writing = true;
    const writers = (async () => {
      while (writing)
        await runWriters(
          { urls, headers, project: 'demo', canvas: 'main', writers: 8, durationMs: 500, deleteEvery: 4 },
          tally,
        );
    })();
    for (let round = 1; round <= rounds; round += 1) {
      await sleep(500 + Math.random() * 1000);
      await stop(current.child, 'SIGKILL');
      current = await serve([...store.flags, '--workers', '0'], join(store.dataDir, `serve-${round}.log`));
      urls[0] = current.url;
    }
    await sleep(500);
    writing = false;
    await writers;
    await stop(current.child);
    const facts = await inspectCanvas(store.location, 'demo', 'main');
    const lost = lostNodes(tally, facts.nodeIds).length + undeletedNodes(tally, facts.nodeIds).length;
    return {
      scenario: `SIGKILL x${rounds} under write load`,
      store: 'sqlite',
      acknowledged: tally.acknowledgedWrites,
      present: tally.acknowledgedWrites - lost,
      integrity: facts.problems.length === 0 ? 'ok' : 'BROKEN',
      lost,
      fiveXX: tally.fiveXX,
      internal: tally.internal,
      notes: `${tally.transportErrors} requests found no server while it was down; ${facts.problems.slice(0, 2).join('; ')}`,
      pass: lost === 0 && facts.problems.length === 0 && tally.internal === 0 && tally.fiveXX === 0,
    };
  } finally {
    await stop(current?.child, 'SIGKILL');
    store.destroy();
  }
}
