import { join } from 'node:path';
import { inspectCanvas } from '../canvas-integrity.js';
import { admin, agentHeaders, demoCredentials, mcpCall, serve, stop, type Row, type Served } from '../harness.js';
import { scenarioStore } from '../stores.js';
import { halfApplied, lostNodes, runBatchWriters, runWriters, undeletedNodes } from '../writers.js';

/**
 * 32 agents write one canvas at once through two server processes on one database: every acknowledged write is
 * there, every acknowledged delete is gone, and the revision moved by exactly the number of acknowledged writes.
 */
export async function storm(kind: 'sqlite' | 'postgres', durationMs: number): Promise<Row> {
  const store = await scenarioStore(kind);
  const processes: Served[] = [];
  try {
    const first = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve-1.log'));
    processes.push(first);
    const second = await serve(
      [...store.flags, '--workers', '0', '--no-seed-demo'],
      join(store.dataDir, 'serve-2.log'),
    );
    processes.push(second);
    const { token, chatRun } = await demoCredentials(first.logFile);
    const headers = agentHeaders(token, chatRun);
    const seed = (
      (await mcpCall(first.url, headers, 'get_canvas', { project_id: 'demo', canvas_id: 'main' })).content?.layout as {
        revision: number;
      }
    ).revision;
    // People's tooling writes atomic batches through the REST API beside the agents.
    const backend = (await admin([
      'token',
      'create',
      '--name',
      'batches',
      '--project',
      'demo',
      '--kind',
      'backend',
      ...store.flags,
    ])) as { token: string; token_id: string };
    const backendChat = (
      (await admin(['chat-run', 'create', 'demo', 'main', '--edit', '--token', backend.token_id, ...store.flags])) as {
        agent_run_id: string;
      }
    ).agent_run_id;
    const [tally, batches] = await Promise.all([
      runWriters({
        urls: [first.url, second.url],
        headers,
        project: 'demo',
        canvas: 'main',
        writers: 28,
        durationMs,
        deleteEvery: 5,
      }),
      runBatchWriters({
        url: second.url,
        token: backend.token,
        chatRun: backendChat,
        project: 'demo',
        canvas: 'main',
        writers: 4,
        durationMs,
      }),
    ]);
    for (const served of processes) await stop(served.child);
    const facts = await inspectCanvas(store.location, 'demo', 'main');
    const lost = lostNodes(tally, facts.nodeIds).length + undeletedNodes(tally, facts.nodeIds).length;
    const partial = halfApplied(batches, facts.nodeIds);
    const acknowledged = tally.acknowledgedWrites + batches.acknowledged.length;
    const exact = facts.revision === seed + acknowledged;
    return {
      scenario: '32-writer storm, 2 processes',
      store: kind,
      acknowledged,
      present: acknowledged - lost - partial,
      integrity: facts.problems.length === 0 && exact ? 'ok' : 'BROKEN',
      lost,
      halfApplied: partial,
      fiveXX: tally.fiveXX + tally.transportErrors,
      internal: tally.internal,
      notes: `revision moved by ${facts.revision - seed} for ${acknowledged} acknowledged writes (${batches.acknowledged.length} batches of 5, ${batches.refused.length} refused whole); ${tally.conflicts} conflicts re-read${facts.problems.length ? `; ${facts.problems.slice(0, 2).join('; ')}` : ''}`,
      pass:
        lost === 0 &&
        partial === 0 &&
        batches.uncertain === 0 &&
        facts.problems.length === 0 &&
        exact &&
        tally.fiveXX === 0 &&
        tally.internal === 0 &&
        tally.transportErrors === 0,
    };
  } finally {
    for (const served of processes) await stop(served.child, 'SIGKILL');
    store.destroy();
  }
}
