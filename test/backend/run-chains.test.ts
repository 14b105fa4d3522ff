import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainEstimate, NodeRun, ResultVersionList, RunChain } from '../../src/contract/index.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * "Run from here", over real HTTP on SQLite and PostgreSQL: a chain runs a node and everything downstream of it along
 * edges in dependency order, each step its own run; a node whose inputs are unchanged since its last success is cached
 * (not run, not charged); the estimate quotes what the chain will cost; one cancel stops the rest; a step that fails
 * stops the steps waiting on it.
 *
 * The graph: script `a` → image `b` → image `c`; `a` → text `t` → image `d`; speech `s` → trim `trim`.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const at = { x: 0, y: 0 };
const NODES = [
  { id: 'a', type: 'scriptNode', position: at, data: { prompt: 'a storm at sea' } },
  {
    id: 'b',
    type: 'imageGenNode',
    position: at,
    data: { prompt: 'the lighthouse', size: '1K', imageUrl: null, aspectRatio: '16:9' },
  },
  {
    id: 'c',
    type: 'imageGenNode',
    position: at,
    data: { prompt: 'the keeper', size: '2K', imageUrl: null, aspectRatio: '16:9' },
  },
  { id: 't', type: 'textAnnotationNode', position: at, data: { content: 'beat 2', displayName: 'beat 2' } },
  {
    id: 'd',
    type: 'imageGenNode',
    position: at,
    data: { prompt: 'the wave', size: '1K', imageUrl: null, aspectRatio: '16:9' },
  },
  { id: 's', type: 'audioNode', position: at, data: { audioUrl: null, audioKind: 'speech', text: 'Hold the light.' } },
  { id: 'trim', type: 'audioTrimNode', position: at, data: { trimStartMs: 0, trimEndMs: 200 } },
];
const EDGES = [
  ['a', 'b'],
  ['b', 'c'],
  ['a', 't'],
  ['t', 'd'],
  ['s', 'trim'],
].map(([source, target]) => ({ id: `${source}-${target}`, source, target }));

interface World {
  server: TestServer;
  as(request?: ApiRequest): ApiRequest;
  revision(): Promise<number>;
}

async function startWorld(target: (typeof STORE_TARGETS)[number], workers: number): Promise<World> {
  const server = await startTestServer(target, { workers, runDurationMs: 0, rateLimitPerMinute: 1_000_000 });
  const { projects } = server.store;
  await projects.createWorkspace('w');
  await projects.createProject('p', 'w');
  await projects.createCanvas('p', 'c', false);
  await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
  const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject: 'ed' }, { expiresInMs: 60_000 });
  const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
  const as = (request: ApiRequest = {}): ApiRequest => ({
    ...request,
    headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
  });
  const revision = async () =>
    (
      (
        await api(
          server.url,
          `${CANVAS}/snapshot`,
          as({ headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } }),
        )
      ).body as { layout: { revision: number } }
    ).layout.revision;
  const operations = [
    ...NODES.map((node) => ({ op: 'create_node', node })),
    ...EDGES.map((edge) => ({ op: 'create_edge', edge })),
  ];
  const created = await api(
    server.url,
    `${CANVAS}/changes`,
    as({ method: 'POST', body: { base_revision: 0, operations } }),
  );
  expect(created.status).toBe(201);
  return { server, as, revision };
}

describe.each(STORE_TARGETS)('run downstream: $name', (target) => {
  describe.skipIf(!target.available)('with a worker', () => {
    let world: World;
    beforeAll(async () => {
      world = await startWorld(target, 1);
    }, 60_000);
    afterAll(async () => world?.server.close());

    const url = (path: string) => `${world.server.url}${CANVAS}${path}`;
    const estimate = async (node: string) =>
      (await api(url(''), `/nodes/${node}/downstream-estimate`, world.as())).body as ChainEstimate;
    const start = (node: string, key: string) =>
      api(url(''), `/nodes/${node}/runs/downstream`, world.as({ method: 'POST', headers: { 'idempotency-key': key } }));
    const chain = async (id: string) => (await api(url(''), `/chains/${id}`, world.as())).body as RunChain;
    const run = async (id: string) => (await api(url(''), `/runs/${id}`, world.as())).body as NodeRun;
    const versionCount = async (node: string) =>
      ((await api(url(''), `/nodes/${node}/versions`, world.as())).body as ResultVersionList).versions.length;
    const settled = (id: string) =>
      waitFor(
        () => chain(id),
        (current) => current.status !== 'active',
      );

    it('quotes the whole chain first: every runnable node downstream, in dependency order, at its price', async () => {
      const quoted = await estimate('a');
      expect(quoted.steps.map((step) => [step.node_id, step.cached, step.cost, step.waits_for])).toEqual([
        ['a', false, 0.5, []],
        ['b', false, 1, ['a']],
        ['c', false, 2, ['b']],
        // d waits for a through the text node t, which does not run.
        ['d', false, 1, ['a']],
      ]);
      expect(quoted).toMatchObject({
        root_node_id: 'a',
        cost: { unit: 'credits', estimated: 4.5 },
        fits_budget: true,
        budget: { credits: null },
      });
    });

    it('runs each step after the steps it waits for, each its own run carrying the chain id; the same key answers the same chain', async () => {
      const started = await start('a', 'chain-1');
      expect(started.status).toBe(202);
      const made = started.body as RunChain;
      expect(made.chain_id).toMatch(/^chain_/);
      expect(made.steps.map((step) => step.node_id)).toEqual(['a', 'b', 'c', 'd']);
      const done = await settled(made.chain_id);
      expect(done.status).toBe('succeeded');
      expect(done.cost).toEqual({ unit: 'credits', estimated: 4.5, charged: 4.5 });
      const runs = new Map(
        await Promise.all(done.steps.map(async (step) => [step.node_id, await run(step.run_id!)] as const)),
      );
      for (const [node, record] of runs)
        expect(record, node).toMatchObject({ status: 'succeeded', chain_id: made.chain_id, node_id: node });
      const finished = (node: string) => Date.parse(runs.get(node)!.finished_at!);
      const began = (node: string) => Date.parse(runs.get(node)!.started_at!);
      expect(began('b')).toBeGreaterThanOrEqual(finished('a'));
      expect(began('c')).toBeGreaterThanOrEqual(finished('b'));
      expect(began('d')).toBeGreaterThanOrEqual(finished('a'));

      const replay = await start('a', 'chain-1');
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotency-replayed')).toBe('true');
      expect((replay.body as RunChain).chain_id).toBe(made.chain_id);
      const otherRoot = await start('b', 'chain-1');
      expect(otherRoot.status).toBe(422);
      expect(otherRoot.body).toMatchObject({ error: { code: 'idempotency_mismatch' } });
    });

    it('skips every node whose inputs did not change: cached, charged nothing, no new version', async () => {
      const quoted = await estimate('a');
      expect(quoted.steps.every((step) => step.cached && step.cost === 0 && step.cached_run_id !== null)).toBe(true);
      expect(quoted.cost.estimated).toBe(0);
      const before = await versionCount('b');
      const made = (await start('a', 'chain-2')).body as RunChain;
      expect(made.status).toBe('succeeded');
      expect(made.steps.map((step) => step.status)).toEqual(['cached', 'cached', 'cached', 'cached']);
      expect(made.cost).toEqual({ unit: 'credits', estimated: 0, charged: 0 });
      expect(await versionCount('b')).toBe(before);
    });

    it('re-runs exactly what changed and what is downstream of it, at the quoted cost', async () => {
      const changed = await api(
        url(''),
        '/nodes/b',
        world.as({
          method: 'PATCH',
          body: {
            base_revision: await world.revision(),
            set: { data: { ...NODES[1]!.data, prompt: 'the lighthouse at dawn' } },
          },
        }),
      );
      expect(changed.status).toBe(200);
      const quoted = await estimate('a');
      expect(quoted.steps.map((step) => [step.node_id, step.cached])).toEqual([
        ['a', true],
        ['b', false],
        ['c', false],
        ['d', true],
      ]);
      expect(quoted.cost.estimated).toBe(3);
      const counts = {
        a: await versionCount('a'),
        b: await versionCount('b'),
        c: await versionCount('c'),
        d: await versionCount('d'),
      };
      const done = await settled(((await start('a', 'chain-3')).body as RunChain).chain_id);
      expect(done.status).toBe('succeeded');
      expect(done.cost.charged).toBe(quoted.cost.estimated);
      expect({
        a: await versionCount('a'),
        b: await versionCount('b'),
        c: await versionCount('c'),
        d: await versionCount('d'),
      }).toEqual({
        ...counts,
        b: counts.b + 1,
        c: counts.c + 1,
      });
    });

    it('a picked version holds its node: the node runs again, but what its downstream nodes read is unchanged', async () => {
      const first = ((await api(url(''), '/nodes/b/versions', world.as())).body as ResultVersionList).versions[0]!
        .run_id;
      const picked = await api(
        url(''),
        `/nodes/b/versions/${first}/pick`,
        world.as({ method: 'POST', body: { base_revision: await world.revision() } }),
      );
      expect(picked.status).toBe(200);
      // The pick itself changed what c reads: c runs once.
      const afterPick = await estimate('a');
      expect(afterPick.steps.filter((step) => !step.cached).map((step) => step.node_id)).toEqual(['c']);
      await settled(((await start('a', 'chain-pick')).body as RunChain).chain_id);
      const node = (await world.server.store.layout.readNode('p', 'c', 'b'))!.node;
      const edited = await api(
        url(''),
        '/nodes/b',
        world.as({
          method: 'PATCH',
          body: {
            base_revision: await world.revision(),
            set: { data: { ...node.data, prompt: 'the lighthouse at dusk' } },
          },
        }),
      );
      expect(edited.status).toBe(200);
      const quoted = await estimate('a');
      expect(quoted.steps.filter((step) => !step.cached).map((step) => step.node_id)).toEqual(['b']);
      await settled(((await start('a', 'chain-pick-2')).body as RunChain).chain_id);
      expect(((await api(url(''), '/nodes/b/versions', world.as())).body as ResultVersionList).current_run_id).toBe(
        first,
      );
    });

    it('a trim downstream of a speech node that runs trims the new speech, not the old one', async () => {
      const done = await settled(((await start('s', 'chain-4')).body as RunChain).chain_id);
      expect(done.status).toBe('succeeded');
      const speech = await run(done.steps.find((step) => step.node_id === 's')!.run_id!);
      const trim = (await world.server.store.runs.getRunRow(
        done.steps.find((step) => step.node_id === 'trim')!.run_id!,
      ))!;
      expect(JSON.parse(trim.input)).toMatchObject({ sourceAssetId: speech.outputs[0]!.asset_id });
    });

    it('refuses a chain the budget cannot cover, whole, before anything runs, as the estimate said', async () => {
      const changed = await api(
        url(''),
        '/nodes/a',
        world.as({
          method: 'PATCH',
          body: { base_revision: await world.revision(), set: { data: { prompt: 'a calm sea' } } },
        }),
      );
      expect(changed.status).toBe(200);
      const project = await world.server.store.projects.getProject('p');
      await world.server.store.projects.setProjectBudget('p', project!.spentCredits + 1);
      const quoted = await estimate('a');
      // a and b run; c is cached (b holds a picked version) and so is d: what it reads (the text node t) did not change.
      expect(quoted.cost.estimated).toBe(1.5);
      expect(quoted.fits_budget).toBe(false);
      const active = await world.server.store.claims.activeRunIds();
      const refused = await start('a', 'chain-5');
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ error: { code: 'budget_exceeded', details: { estimated_cost: 1.5 } } });
      expect((refused.body as { error: { message: string } }).error.message).toContain(
        'This chain (2 runs) is estimated at 1.5 credits',
      );
      expect(await world.server.store.claims.activeRunIds()).toEqual(active);
      await world.server.store.projects.setProjectBudget('p', null);
    });

    it('refuses a cycle downstream, naming its nodes and only them', async () => {
      const base = await world.revision();
      const looped = await api(
        url(''),
        '/changes',
        world.as({
          method: 'POST',
          body: {
            base_revision: base,
            operations: [
              { op: 'create_node', node: { id: 'x', type: 'scriptNode', position: at, data: { prompt: 'x' } } },
              { op: 'create_node', node: { id: 'y', type: 'scriptNode', position: at, data: { prompt: 'y' } } },
              { op: 'create_node', node: { id: 'z', type: 'scriptNode', position: at, data: { prompt: 'z' } } },
              { op: 'create_edge', edge: { id: 'x-y', source: 'x', target: 'y' } },
              { op: 'create_edge', edge: { id: 'y-x', source: 'y', target: 'x' } },
              // Downstream of the cycle, not on it.
              { op: 'create_edge', edge: { id: 'y-z', source: 'y', target: 'z' } },
            ],
          },
        }),
      );
      expect(looped.status).toBe(201);
      const refused = await start('x', 'chain-6');
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ error: { code: 'not_runnable', details: { cycle: ['x', 'y'] } } });
      expect((refused.body as { error: { details: { cycle: string[] } } }).error.details.cycle).toEqual(['x', 'y']);
    });
  });

  describe.skipIf(!target.available)('driven step by step (no worker)', () => {
    let world: World;
    beforeAll(async () => {
      world = await startWorld(target, 0);
    }, 60_000);
    afterAll(async () => world?.server.close());

    const start = async (node: string, key: string) =>
      (
        await api(
          `${world.server.url}${CANVAS}`,
          `/nodes/${node}/runs/downstream`,
          world.as({ method: 'POST', headers: { 'idempotency-key': key } }),
        )
      ).body as RunChain;
    const chain = async (id: string) =>
      (await api(`${world.server.url}${CANVAS}`, `/chains/${id}`, world.as())).body as RunChain;
    const claims = () => world.server.store.claims;

    it('two edges between the same nodes are one dependency: the order and the waits stay right', async () => {
      const base = await world.revision();
      const made = await api(
        `${world.server.url}${CANVAS}`,
        '/changes',
        world.as({
          method: 'POST',
          body: {
            base_revision: base,
            operations: [
              { op: 'create_node', node: { id: 'p', type: 'scriptNode', position: at, data: { prompt: 'p' } } },
              // q is created before r, but waits for it.
              { op: 'create_node', node: { id: 'q', type: 'scriptNode', position: at, data: { prompt: 'q' } } },
              { op: 'create_node', node: { id: 'r', type: 'scriptNode', position: at, data: { prompt: 'r' } } },
              { op: 'create_edge', edge: { id: 'p-q-1', source: 'p', target: 'q' } },
              { op: 'create_edge', edge: { id: 'p-q-2', source: 'p', target: 'q' } },
              { op: 'create_edge', edge: { id: 'p-r', source: 'p', target: 'r' } },
              { op: 'create_edge', edge: { id: 'r-q', source: 'r', target: 'q' } },
            ],
          },
        }),
      );
      expect(made.status).toBe(201);
      const quoted = (await api(`${world.server.url}${CANVAS}`, '/nodes/p/downstream-estimate', world.as()))
        .body as ChainEstimate;
      expect(quoted.steps.map((step) => [step.node_id, [...step.waits_for].sort()])).toEqual([
        ['p', []],
        ['r', ['p']],
        ['q', ['p', 'r']],
      ]);
    });

    it('the same key twice at once makes one chain: the second request answers it', async () => {
      const both = await Promise.all(
        [1, 2].map(() =>
          api(
            `${world.server.url}${CANVAS}`,
            '/nodes/p/runs/downstream',
            world.as({ method: 'POST', headers: { 'idempotency-key': 'twice' } }),
          ),
        ),
      );
      expect(both.map((response) => response.status).sort()).toEqual([200, 202]);
      const [first, second] = both.map((response) => (response.body as RunChain).chain_id);
      expect(first).toBe(second);
      // A repeated request answers its chain even once the canvas is locked.
      await world.server.store.projects.setCanvasLocked('p', 'c', true);
      try {
        const again = await api(
          `${world.server.url}${CANVAS}`,
          '/nodes/p/runs/downstream',
          world.as({ method: 'POST', headers: { 'idempotency-key': 'twice' } }),
        );
        expect(again.status).toBe(200);
        expect((again.body as RunChain).chain_id).toBe(first);
      } finally {
        await world.server.store.projects.setCanvasLocked('p', 'c', false);
      }
      await api(`${world.server.url}${CANVAS}`, `/chains/${first}/cancel`, world.as({ method: 'POST' }));
    });

    it('claims a step only once the steps it waits for succeeded; a failure cancels the steps waiting on it, uncharged', async () => {
      const made = await start('a', 'fail-1');
      const root = await claims().claimNext('test-worker', 60_000);
      expect(root?.node_id).toBe('a');
      // b and d wait for a; c waits for b: nothing else may start yet.
      expect(await claims().claimNext('test-worker', 60_000)).toBeUndefined();
      const lease = { jobId: root!.id, workerId: 'test-worker', attempt: root!.attempt };
      expect(
        await claims().complete(lease, {
          status: 'failed',
          error: { code: 'provider_error', message: 'boom' },
          charged: 0,
        }),
      ).toBe(true);
      const after = await chain(made.chain_id);
      expect(after.status).toBe('failed');
      expect(after.steps.map((step) => [step.node_id, step.status, step.cost.charged])).toEqual([
        ['a', 'failed', 0],
        ['b', 'cancelled', 0],
        ['c', 'cancelled', 0],
        ['d', 'cancelled', 0],
      ]);
      expect(await claims().activeRunIds()).toEqual([]);
    });

    it('the canvas read lists a chain while a step of it is unfinished, so a page opened meanwhile can follow it', async () => {
      const activeChains = async () =>
        (
          (
            await api(
              `${world.server.url}${CANVAS}`,
              '/snapshot',
              world.as({ headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } }),
            )
          ).body as { active_chains?: string[] }
        ).active_chains;
      const made = await start('a', 'listed-1');
      expect(await activeChains()).toEqual([made.chain_id]);
      const root = await claims().claimNext('test-worker', 60_000);
      expect(await activeChains()).toEqual([made.chain_id]);
      await api(`${world.server.url}${CANVAS}`, `/chains/${made.chain_id}/cancel`, world.as({ method: 'POST' }));
      // The running step was asked to stop: the chain is not over until its worker says so.
      expect(await activeChains()).toEqual([made.chain_id]);
      expect(
        await claims().complete(
          { jobId: root!.id, workerId: 'test-worker', attempt: root!.attempt },
          { status: 'cancelled', charged: 0 },
        ),
      ).toBe(true);
      expect(await activeChains()).toBeUndefined();
    });

    it('one cancel stops the whole chain: the running step is asked to stop, the waiting ones never start', async () => {
      const made = await start('a', 'cancel-1');
      const root = await claims().claimNext('test-worker', 60_000);
      const cancelled = await api(
        `${world.server.url}${CANVAS}`,
        `/chains/${made.chain_id}/cancel`,
        world.as({ method: 'POST' }),
      );
      expect(cancelled.status).toBe(200);
      expect((cancelled.body as RunChain).steps.map((step) => [step.node_id, step.status])).toEqual([
        ['a', 'cancel_requested'],
        ['b', 'cancelled'],
        ['c', 'cancelled'],
        ['d', 'cancelled'],
      ]);
      expect(
        await claims().complete(
          { jobId: root!.id, workerId: 'test-worker', attempt: root!.attempt },
          { status: 'cancelled', charged: 0 },
        ),
      ).toBe(true);
      expect((await chain(made.chain_id)).status).toBe('cancelled');
      expect(await claims().claimNext('test-worker', 60_000)).toBeUndefined();
      const missing = await api(
        `${world.server.url}${CANVAS}`,
        '/chains/chain_missing/cancel',
        world.as({ method: 'POST' }),
      );
      expect(missing.status).toBe(404);
    });
  });
});
