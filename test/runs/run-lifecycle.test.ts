import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRun, NodeRuntimeState } from '../../src/contract/index.js';
import { seedWorld, type World } from '../backend/world.js';
import { connectClient, structured, toolError } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { submitRunChain } from '../../src/runs/submit.js';

/** Node runs end to end through MCP, executed by the real engine with the local provider. */

const ids = { project_id: 'p1', canvas_id: 'c1' };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function executionLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

interface Harness {
  server: TestServer;
  world: World;
  agent: Client;
  log: string;
  node(id: string, type: string, data: Record<string, unknown>): Promise<void>;
  submit(nodeId: string, key?: string): Promise<NodeRun>;
  run(runId: string): Promise<NodeRun>;
  states(): Promise<{ revision: number; states: Record<string, NodeRuntimeState> }>;
  close(): Promise<void>;
}

async function harness(
  target: (typeof STORE_TARGETS)[number],
  runDurationMs: number,
  workers: number,
): Promise<Harness> {
  const log = join(mkdtempSync(join(tmpdir(), 'canvas-mcp-exec-')), 'executions.log');
  writeFileSync(log, '');
  const server = await startTestServer(target, {
    workers,
    runDurationMs,
    enableHiddenTools: true,
    localExecutionLog: log,
  });
  const world = await seedWorld(server.store);
  const agent = await connectClient(server.server.mcpUrl, {
    Authorization: `Bearer ${world.tokens.editor.secret}`,
    'X-Agent-Run-Id': world.chatRuns.edit,
  });
  const revision = async () =>
    structured<{ layout: { revision: number } }>(await agent.callTool({ name: 'get_canvas', arguments: ids })).layout
      .revision;
  return {
    server,
    world,
    agent,
    log,
    async node(id, type, data) {
      const result = await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: await revision(), node: { id, type, position: { x: 0, y: 0 }, data } },
      });
      expect(result.isError).toBeFalsy();
    },
    async submit(nodeId, key) {
      const result = await agent.callTool({
        name: 'submit_canvas_node_run',
        arguments: { ...ids, node_id: nodeId, ...(key ? { idempotency_key: key } : {}) },
      });
      expect(result.isError).toBeFalsy();
      return structured<NodeRun>(result);
    },
    async run(runId) {
      return structured<NodeRun>(
        await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: runId } }),
      );
    },
    async states() {
      const snapshot = structured<{ layout: { revision: number }; node_states: Record<string, NodeRuntimeState> }>(
        await agent.callTool({ name: 'get_canvas', arguments: ids }),
      );
      return { revision: snapshot.layout.revision, states: snapshot.node_states };
    },
    async close() {
      await agent.close();
      await server.close();
    },
  };
}

describe.each(STORE_TARGETS)('node runs end to end: $name', (target) => {
  describe.skipIf(!target.available)('with the engine and the local provider', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(target, 900, 2);
    });
    afterAll(async () => h?.close());

    it('runs an image generation: progress in node_states, real PNG assets, the layout untouched', async () => {
      await h.node('frame', 'imageGenNode', {
        prompt: 'a fox in snow',
        size: '1K',
        imageUrl: null,
        aspectRatio: '16:9',
        count: 2,
      });
      const before = await h.states();
      const submitted = await h.submit('frame', 'frame-once');
      expect(submitted).toMatchObject({
        status: 'queued',
        operation: 'image_generation',
        cost: { estimated: 2, charged: null },
      });

      const running = await waitFor(
        () => h.states(),
        ({ states }) => (states.frame?.progress.percent ?? 0) > 0 && states.frame?.lastRunStatus === 'running',
      );
      expect(running.states.frame).toMatchObject({
        externalRunId: submitted.run_id,
        externalRunStatus: 'running',
        isGenerating: true,
      });
      expect(running.states.frame?.resources.map((resource) => resource.status)).toEqual(['pending', 'pending']);

      const done = await waitFor(
        () => h.run(submitted.run_id),
        (run) => run.status === 'succeeded',
      );
      expect(done).toMatchObject({
        attempt: 1,
        progress: { percent: 100 },
        cost: { estimated: 2, charged: 2 },
        error: null,
      });
      // What the web canvas counts "running for N s" from.
      expect(running.states.frame?.generationStartedAt).toBe(Date.parse(done.started_at!));
      expect(done.outputs).toHaveLength(2);
      for (const output of done.outputs) {
        // Tool results carry asset URLs absolute, under the server's public URL, and signed.
        expect(output).toMatchObject({ kind: 'image', mime_type: 'image/png' });
        expect(output.url.startsWith(`${h.server.url}/assets/${output.asset_id}?exp=`)).toBe(true);
        const response = await fetch(output.url);
        expect(response.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await response.arrayBuffer()).subarray(0, 8)).toEqual(PNG_SIGNATURE);
      }
      const after = await h.states();
      expect(after.states.frame).toMatchObject({
        externalRunStatus: null,
        isGenerating: false,
        lastRunStatus: 'succeeded',
        generationError: null,
      });
      expect(
        after.states.frame?.resources.every(
          (resource) => resource.status === 'ready' && resource.url?.startsWith(`${h.server.url}/assets/`),
        ),
      ).toBe(true);
      expect(after.revision).toBe(before.revision);

      // The same key and input: the same run, never executed or charged twice.
      const again = await h.submit('frame', 'frame-once');
      expect(again.run_id).toBe(submitted.run_id);
      expect(executionLines(h.log).filter((line) => line.startsWith(submitted.run_id))).toEqual([
        `${submitted.run_id} 1`,
      ]);
      expect((await h.server.store.projects.getProject('p1'))?.spentCredits).toBe(2);
    });

    it('runs speech, script and skill nodes to WAV and JSON assets', async () => {
      await h.node('voice', 'audioNode', { audioUrl: null, text: 'The sea was waiting.' });
      await h.node('script', 'scriptNode', { prompt: 'a storm at sea' });
      await h.node('plan', 'skillNode', { skill_id: 'workflow.plan_beat_graph', parameters: {} });
      const runs = await Promise.all(['voice', 'script', 'plan'].map((nodeId) => h.submit(nodeId)));
      const done = await Promise.all(
        runs.map((run) =>
          waitFor(
            () => h.run(run.run_id),
            (current) => current.status === 'succeeded',
          ),
        ),
      );
      expect(done.map((run) => [run.operation, run.outputs[0]?.mime_type])).toEqual([
        ['speech_generation', 'audio/wav'],
        ['script_generation', 'application/json'],
        ['skill', 'application/json'],
      ]);
      const wav = Buffer.from(await (await fetch(done[0]!.outputs[0]!.url)).arrayBuffer());
      expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
      const json = (await (await fetch(done[2]!.outputs[0]!.url)).json()) as { skill_id: string };
      expect(json.skill_id).toBe('workflow.plan_beat_graph');
    });

    it('get_canvas_node_run names the downstream chain a run is a step of, and none for a run of one node', async () => {
      await h.node('chained', 'scriptNode', { prompt: 'a chain of one' });
      const { chain } = await submitRunChain(h.server.store, {
        projectId: 'p1',
        canvasId: 'c1',
        nodeId: 'chained',
        idempotencyKey: 'chain-once',
        triggeredBy: { kind: 'user', name: 'dana' },
      });
      h.server.server.engine!.runQueued();
      const step = await waitFor(
        () => h.run(chain.steps[0]!.run_id!),
        (run) => run.status === 'succeeded',
      );
      expect(step).toMatchObject({ chain_id: chain.chain_id, node_id: 'chained', version: 1 });
      const alone = await h.submit('chained', 'alone');
      expect(alone.chain_id).toBeNull();
    });

    it('a cancel racing completion ends in exactly one consistent outcome', async () => {
      const outcomes: string[] = [];
      for (const [index, delayMs] of [700, 800, 850, 900, 950, 1000].entries()) {
        const nodeId = `race-${index}`;
        await h.node(nodeId, 'imageGenNode', { prompt: nodeId, size: '1K', imageUrl: null, aspectRatio: '1:1' });
        const submitted = await h.submit(nodeId);
        await waitFor(
          () => h.run(submitted.run_id),
          (run) => run.status !== 'queued',
        );
        // Intentional fixed delays, not a wait for a condition: the race is the point. Runs take 900 ms here, so these
        // cancels land just before, at and just after completion, and either may win; exactly one outcome must hold.
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        const answer = structured<{ status: string }>(
          await h.agent.callTool({ name: 'cancel_canvas_node_run', arguments: { ...ids, run_id: submitted.run_id } }),
        );
        expect(['cancel_requested', 'succeeded']).toContain(answer.status);
        const final = await waitFor(
          () => h.run(submitted.run_id),
          (run) => run.status === 'succeeded' || run.status === 'cancelled',
        );
        outcomes.push(final.status);
        const { states } = await h.states();
        if (final.status === 'succeeded') {
          expect(final.outputs).toHaveLength(1);
          expect(final.cost.charged).toBe(final.cost.estimated);
          expect(states[nodeId]?.resources.map((resource) => resource.status)).toEqual(['ready']);
        } else {
          expect(final.outputs).toEqual([]);
          expect(final.cost.charged).toBeLessThanOrEqual(final.cost.estimated);
          expect(states[nodeId]?.resources.map((resource) => resource.status)).toEqual(['cancelled']);
        }
        expect(executionLines(h.log).filter((line) => line.startsWith(submitted.run_id))).toHaveLength(1);
        // Terminal means final: a later cancel changes nothing.
        const later = structured<{ status: string }>(
          await h.agent.callTool({ name: 'cancel_canvas_node_run', arguments: { ...ids, run_id: submitted.run_id } }),
        );
        expect(later.status).toBe(final.status);
      }
      expect(outcomes).toHaveLength(6);
    }, 60_000);

    it('refuses a submission whose estimated cost exceeds the budget left', async () => {
      await h.server.store.projects.setProjectBudget('p1', 2.5);
      await h.node('big', 'imageGenNode', { prompt: 'a city', size: '4K', imageUrl: null, aspectRatio: '1:1' });
      const refused = await h.agent.callTool({ name: 'submit_canvas_node_run', arguments: { ...ids, node_id: 'big' } });
      expect(toolError(refused)).toMatchObject({ code: 'budget_exceeded', details: { estimated_cost: 4 } });
      await h.server.store.projects.setProjectBudget('p1', null);
    });
  });

  describe.skipIf(!target.available)('cancellation', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness(target, 6000, 1);
    });
    afterAll(async () => h?.close());

    it('cancels a running run: cancel_requested at once, cancelled soon after, charged for the part that ran', async () => {
      await h.node('long', 'imageGenNode', { prompt: 'slow', size: '1K', imageUrl: null, aspectRatio: '1:1' });
      const submitted = await h.submit('long');
      await waitFor(
        () => h.run(submitted.run_id),
        (run) => (run.progress.percent ?? 0) >= 10,
      );

      const started = Date.now();
      const answer = structured<{ status: string; run: NodeRun }>(
        await h.agent.callTool({ name: 'cancel_canvas_node_run', arguments: { ...ids, run_id: submitted.run_id } }),
      );
      expect(answer.status).toBe('cancel_requested');
      expect(['cancel_requested', 'cancelled']).toContain(answer.run.status);
      const cancelled = await waitFor(
        () => h.run(submitted.run_id),
        (run) => run.status === 'cancelled',
      );
      const elapsed = Date.now() - started;
      // The run had about five seconds left: it stopped because of the cancel, not because it finished.
      expect(elapsed).toBeLessThan(2000);
      expect(cancelled.cost.charged).toBeGreaterThan(0);
      expect(cancelled.cost.charged).toBeLessThan(cancelled.cost.estimated);
      const { states } = await h.states();
      expect(states.long).toMatchObject({ lastRunStatus: 'cancelled', externalRunStatus: null, isGenerating: false });
      expect(states.long?.resources.every((resource) => resource.status === 'cancelled')).toBe(true);

      const repeated = structured<{ status: string }>(
        await h.agent.callTool({ name: 'cancel_canvas_node_run', arguments: { ...ids, run_id: submitted.run_id } }),
      );
      expect(repeated.status).toBe('cancelled');
    });

    it('deleting a node stops its runs, and a new node with the same id shows none of them', async () => {
      await h.node('doomed', 'imageGenNode', {
        prompt: 'will be deleted',
        size: '1K',
        imageUrl: null,
        aspectRatio: '1:1',
        count: 4,
      });
      const running = await h.submit('doomed');
      await waitFor(
        () => h.run(running.run_id),
        (run) => (run.progress.percent ?? 0) >= 10,
      );
      const queued = await h.submit('doomed');
      const deleted = structured<{ cancelled_run_ids: string[] }>(
        await h.agent.callTool({
          name: 'delete_canvas_node',
          arguments: { ...ids, node_id: 'doomed', base_revision: (await h.states()).revision },
        }),
      );
      expect(deleted.cancelled_run_ids.sort()).toEqual([running.run_id, queued.run_id].sort());
      const stopped = await waitFor(
        () => h.run(running.run_id),
        (run) => run.status === 'cancelled',
        2000,
      );
      expect(stopped.cost.charged).toBeLessThan(stopped.cost.estimated);
      expect(await h.run(queued.run_id)).toMatchObject({ status: 'cancelled', started_at: null, cost: { charged: 0 } });

      await h.node('doomed', 'textAnnotationNode', { content: 'a new node, same id' });
      const { states } = await h.states();
      expect(states.doomed).toBeUndefined();
    });

    it('cancels a queued run before it starts: never executed, never charged', async () => {
      await h.node('busy', 'imageGenNode', {
        prompt: 'keeps the worker busy',
        size: '1K',
        imageUrl: null,
        aspectRatio: '1:1',
      });
      await h.node('waiting', 'imageGenNode', { prompt: 'waits', size: '1K', imageUrl: null, aspectRatio: '1:1' });
      const busy = await h.submit('busy');
      await waitFor(
        () => h.run(busy.run_id),
        (run) => run.status === 'running',
      );
      const waiting = await h.submit('waiting');
      expect((await h.run(waiting.run_id)).status).toBe('queued');

      const answer = structured<{ status: string; run: NodeRun }>(
        await h.agent.callTool({ name: 'cancel_canvas_node_run', arguments: { ...ids, run_id: waiting.run_id } }),
      );
      expect(answer).toMatchObject({
        status: 'cancel_requested',
        run: { status: 'cancelled', started_at: null, cost: { charged: 0 } },
      });
      await h.agent.callTool({ name: 'cancel_canvas_node_run', arguments: { ...ids, run_id: busy.run_id } });
      await waitFor(
        () => h.run(busy.run_id),
        (run) => run.status === 'cancelled',
      );
      expect(executionLines(h.log).some((line) => line.startsWith(waiting.run_id))).toBe(false);
      expect((await h.run(waiting.run_id)).attempt).toBe(0);
    });
  });
});
