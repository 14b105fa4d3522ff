import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRun, ResultVersionList } from '../../src/contract/index.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * Result versions, over real HTTP on SQLite and PostgreSQL with real runs on the local provider: every succeeded run of
 * a node is a version; the current one is the latest until someone picks another; a pick is a layout write (a revision
 * with its author, refused on a stale base_revision, undone by a revert); canvas reads say how many versions each node
 * has and which is current.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';

describe.each(STORE_TARGETS)('result versions: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    const cookies: Record<string, string> = {};
    const runIds: string[] = [];

    beforeAll(async () => {
      server = await startTestServer(target, { workers: 1, runDurationMs: 0, rateLimitPerMinute: 1_000_000 });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      for (const [subject, role] of [
        ['ed', 'editor'],
        ['vic', 'viewer'],
      ] as const) {
        await projects.addMember('p', { issuer: IDP, subject }, role);
        const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
        cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      }
      const node = {
        id: 'frame',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'a lighthouse', size: '1K', imageUrl: null, aspectRatio: '16:9' },
      };
      const created = await api(
        server.url,
        `${CANVAS}/nodes`,
        as('ed', { method: 'POST', body: { node, base_revision: 0 } }),
      );
      expect(created.status).toBe(201);
      for (const key of ['v1', 'v2', 'v3']) runIds.push(await runOnce(key));
    }, 60_000);
    afterAll(async () => server?.close());

    function as(who: string, request: ApiRequest = {}): ApiRequest {
      return {
        ...request,
        headers: { cookie: cookies[who]!, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
      };
    }
    async function runOnce(key: string): Promise<string> {
      const submitted = await api(
        server.url,
        `${CANVAS}/nodes/frame/runs`,
        as('ed', { method: 'POST', headers: { 'idempotency-key': key } }),
      );
      expect(submitted.status).toBe(202);
      const runId = (submitted.body as NodeRun).run_id;
      await waitFor(
        async () => ((await api(server.url, `${CANVAS}/runs/${runId}`, as('ed'))).body as NodeRun).status,
        (status) => status === 'succeeded',
      );
      return runId;
    }
    const versions = async () =>
      (await api(server.url, `${CANVAS}/nodes/frame/versions`, as('vic'))).body as ResultVersionList;
    const snapshot = async () =>
      (
        await api(
          server.url,
          `${CANVAS}/snapshot`,
          as('vic', { headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } }),
        )
      ).body as {
        layout: { revision: number; nodes: Array<{ id: string; data: Record<string, unknown> }> };
        node_states: Record<string, { externalRunId: string; lastRunStatus: string }>;
        result_versions?: Record<string, { count: number; current_run_id: string }>;
      };
    const pick = (runId: string, baseRevision: number, who = 'ed') =>
      api(
        server.url,
        `${CANVAS}/nodes/frame/versions/${runId}/pick`,
        as(who, { method: 'POST', body: { base_revision: baseRevision } }),
      );

    it('lists every succeeded run as a version, the latest current, and canvas reads say so', async () => {
      const list = await versions();
      expect(list).toMatchObject({ node_id: 'frame', current_run_id: runIds[2], picked: false });
      expect(list.versions.map((version) => [version.version, version.run_id, version.current])).toEqual([
        [1, runIds[0], false],
        [2, runIds[1], false],
        [3, runIds[2], true],
      ]);
      expect(list.versions[0]).toMatchObject({
        triggered_by: { kind: 'user', name: 'ed' },
        outputs: [{ kind: 'image', mime_type: 'image/png' }],
      });
      expect(list.versions[0]!.input_hash).toMatch(/^[0-9a-f]{64}$/);
      // Outputs come with signed URLs, readable without a session.
      expect((await fetch(`${server.url}${list.versions[0]!.outputs[0]!.url}`)).status).toBe(200);
      expect((await snapshot()).result_versions).toEqual({ frame: { count: 3, current_run_id: runIds[2] } });
      // A run's record says which version it produced.
      expect(
        ((await api(server.url, `${CANVAS}/runs/${runIds[1]}`, as('vic'))).body as NodeRun & { version: number })
          .version,
      ).toBe(2);
    });

    it('a pick is a layout write: the node names the run and its image; a new run does not undo it; a revert does', async () => {
      const before = (await snapshot()).layout.revision;
      const stale = await pick(runIds[0]!, before - 1);
      expect(stale.status).toBe(409);
      expect((await pick(runIds[0]!, before, 'vic')).status).toBe(403);
      const ghost = await pick('run_not_a_version', before);
      expect(ghost.status).toBe(404);
      expect(JSON.stringify(ghost.body)).toContain('not a version of node frame');

      const picked = await pick(runIds[0]!, before);
      expect(picked.status, JSON.stringify(picked.body)).toBe(200);
      expect((picked.body as { revision: number }).revision).toBe(before + 1);
      const read = await snapshot();
      const data = read.layout.nodes.find((node) => node.id === 'frame')!.data;
      const first = (await versions()).versions[0]!;
      expect(data).toMatchObject({
        externalRunId: runIds[0],
        committed_slot_url: `/assets/${first.outputs[0]!.asset_id}`,
      });
      expect(typeof data.committed_at).toBe('string');
      expect(read.result_versions).toEqual({ frame: { count: 3, current_run_id: runIds[0] } });
      // What get_canvas reports of the node is the version the person picked, not its latest run.
      expect(read.node_states.frame).toMatchObject({ externalRunId: runIds[0], lastRunStatus: 'succeeded' });
      expect(await versions()).toMatchObject({ current_run_id: runIds[0], picked: true });
      const history = (await api(server.url, `${CANVAS}/history?limit=1`, as('vic'))).body as {
        revisions: Array<{ revision: number; author: { kind: string; subject?: string } }>;
      };
      expect(history.revisions[0]).toMatchObject({ revision: before + 1, author: { kind: 'person', subject: 'ed' } });

      runIds.push(await runOnce('v4'));
      const pinned = await snapshot();
      expect(pinned.result_versions).toEqual({ frame: { count: 4, current_run_id: runIds[0] } });
      expect(pinned.node_states.frame).toMatchObject({ externalRunId: runIds[0] });

      const reverted = await api(
        server.url,
        `${CANVAS}/revert`,
        as('ed', { method: 'POST', body: { base_revision: before + 1, to_revision: before } }),
      );
      expect(reverted.status, JSON.stringify(reverted.body)).toBe(201);
      expect(await versions()).toMatchObject({ current_run_id: runIds[3], picked: false });
    });

    it('Run ×N makes N variants in one request, each its own run and version; the same key answers the same runs, with another count it is refused', async () => {
      const variants = (body: unknown, key: string) =>
        api(
          server.url,
          `${CANVAS}/nodes/frame/runs/variants`,
          as('ed', { method: 'POST', headers: { 'idempotency-key': key }, body }),
        );
      expect((await variants({ count: 9 }, 'x')).status).toBe(400);
      expect(
        (await api(server.url, `${CANVAS}/nodes/frame/runs/variants`, as('ed', { method: 'POST', body: { count: 2 } })))
          .status,
      ).toBe(400);
      const made = await variants({ count: 3 }, 'trio');
      expect(made.status, JSON.stringify(made.body)).toBe(202);
      const runs = (made.body as { runs: NodeRun[] }).runs;
      expect(runs).toHaveLength(3);
      expect(new Set(runs.map((run) => run.run_id)).size).toBe(3);
      expect(runs.map((run) => run.idempotency_key)).toEqual(['trio#1', 'trio#2', 'trio#3']);
      const again = await variants({ count: 3 }, 'trio');
      expect(again.status).toBe(200);
      expect((again.body as { runs: NodeRun[] }).runs.map((run) => run.run_id)).toEqual(runs.map((run) => run.run_id));
      // The same key with another count is another request: refused whole, nothing made or answered in part.
      for (const count of [2, 4]) {
        const other = await variants({ count }, 'trio');
        expect(other.status, `count ${count}`).toBe(422);
        expect(other.body).toMatchObject({ error: { code: 'idempotency_mismatch' } });
      }
      expect(await server.store.runs.keyUsed('p', 'c', 'trio#4')).toBe(false);
      for (const run of runs) {
        await waitFor(
          async () => ((await api(server.url, `${CANVAS}/runs/${run.run_id}`, as('ed'))).body as NodeRun).status,
          (status) => status === 'succeeded',
        );
      }
      const list = await versions();
      expect(list.versions).toHaveLength(7);
      // Each variant is its own result: different inputs, different images.
      const latest = list.versions.slice(-3);
      expect(new Set(latest.map((version) => version.input_hash)).size).toBe(3);
      const images = await Promise.all(
        latest.map(async (version) =>
          Buffer.from(await (await fetch(`${server.url}${version.outputs[0]!.url}`)).arrayBuffer()).toString('base64'),
        ),
      );
      expect(new Set(images).size).toBe(3);
    });

    it('Run ×N is all or none: a budget that covers only some refuses the request and starts nothing', async () => {
      const { spent, reserved } = await server.store.runs.budget('p');
      await server.store.projects.setProjectBudget('p', spent + reserved + 1.5);
      try {
        const before = (await versions()).versions.length;
        const refused = await api(
          server.url,
          `${CANVAS}/nodes/frame/runs/variants`,
          as('ed', { method: 'POST', headers: { 'idempotency-key': 'too-many' }, body: { count: 2 } }),
        );
        expect(refused.status).toBe(402);
        expect(JSON.stringify(refused.body)).toContain('budget_exceeded');
        expect(
          await server.store.driver.all("SELECT id FROM node_runs WHERE idempotency_key LIKE 'too-many%'"),
        ).toEqual([]);
        expect((await versions()).versions.length).toBe(before);
      } finally {
        await server.store.projects.setProjectBudget('p', null);
      }
    });
  });
});
