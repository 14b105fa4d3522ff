import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILL_IDS, SKILL_PARAMETERS, SNAPSHOT_CONTRACT_VERSION, inputJsonSchema } from '../../src/contract/index.js';
import { sha256Hex } from '../../src/shared/ids.js';
import { api, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { rawRequest } from '../support/raw-http.js';
import { STORE_TARGETS } from '../support/stores.js';
import { aliceHeaders, seedWorld, type World } from './world.js';

const CANVAS = '/api/v2/projects/p1/canvases/c1';
const SNAPSHOT_HEADERS = { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION };

function text(id: string, extra: Record<string, unknown> = {}) {
  return { id, type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: id, displayName: id }, ...extra };
}

function errorOf(body: unknown): { code: string; message: string; details?: Record<string, unknown> } {
  return (body as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

describe.each(STORE_TARGETS)('backend HTTP API: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let world: World;
    let call: (path: string, request?: ApiRequest) => ReturnType<typeof api>;
    let editorWrite: (request: ApiRequest) => ApiRequest;

    beforeAll(async () => {
      server = await startTestServer(target);
      world = await seedWorld(server.store, { kind: 'backend' });
      call = (path, request) => api(server.url, path, request);
      editorWrite = (request) => ({
        token: world.tokens.editor.secret,
        ...request,
        headers: { 'x-agent-run-id': world.chatRuns.edit, ...request.headers },
      });
    });
    afterAll(async () => server.close());

    async function revision(): Promise<number> {
      const response = await call(`${CANVAS}/snapshot`, {
        token: world.tokens.editor.secret,
        headers: SNAPSHOT_HEADERS,
      });
      return (response.body as { layout: { revision: number } }).layout.revision;
    }

    describe('health', () => {
      it('answers /healthz and /readyz without a token', async () => {
        expect(await call('/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
        expect(await call('/readyz')).toMatchObject({ status: 200, body: { status: 'ready', store: target.name } });
      });
    });

    describe('GET snapshot', () => {
      it('returns layout and node_states separately, with the revision to write against', async () => {
        const response = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          snapshot_version: SNAPSHOT_CONTRACT_VERSION,
          project_id: 'p1',
          canvas_id: 'c1',
          locked: false,
          layout: { revision: expect.any(Number), nodes: expect.any(Array), edges: expect.any(Array) },
          node_states: {},
        });
        expect(response.headers.get('x-request-id')).toMatch(/.+/);
      });

      it.each([
        ['without the version header', {}, 'An unversioned snapshot read'],
        ['with another version', { 'x-canvas-snapshot-version': 'canvas-snapshot.v1' }, 'is not served'],
      ])('is a contract error %s', async (_name, headers, message) => {
        const response = await call(`${CANVAS}/snapshot`, { token: world.tokens.editor.secret, headers });
        expect(response.status).toBe(400);
        expect(errorOf(response.body)).toMatchObject({
          code: 'contract_error',
          details: { expected_version: SNAPSHOT_CONTRACT_VERSION },
        });
        expect(errorOf(response.body).message).toContain(message);
      });

      it('refuses a bad canvas id before touching storage, and answers 404 for a missing canvas', async () => {
        const bad = await call('/api/v2/projects/p1/canvases/bad.id/snapshot', {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        expect(bad.status).toBe(400);
        expect(errorOf(bad.body).details?.issues).toEqual([expect.objectContaining({ path: 'canvas_id' })]);
        const missing = await call('/api/v2/projects/p1/canvases/nope/snapshot', {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        expect(missing.status).toBe(404);
        expect(errorOf(missing.body).code).toBe('not_found');
      });
    });

    describe('GET /api/v1/zone/skills', () => {
      it('serves the eight skills with skill.v1 and parameter schemas generated from the contract', async () => {
        const response = await call('/api/v1/zone/skills', { token: world.tokens.otherProject.secret });
        expect(response.status).toBe(200);
        const skills = (response.body as { skills: Array<Record<string, unknown>> }).skills;
        expect(skills.map((skill) => skill.skill_id)).toEqual([...SKILL_IDS]);
        for (const skill of skills) {
          expect(skill).toMatchObject({
            skill_schema_version: 'skill.v1',
            title: expect.any(String),
            description: expect.any(String),
          });
          expect(skill.input_schema).toEqual(
            inputJsonSchema(SKILL_PARAMETERS[skill.skill_id as (typeof SKILL_IDS)[number]]),
          );
        }
      });
    });

    describe('node writes', () => {
      it('creates a node with a 201 receipt and bumps the revision by exactly 1', async () => {
        const base = await revision();
        const response = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('w1'), base_revision: base } }),
        );
        expect(response.status).toBe(201);
        expect(response.body).toMatchObject({
          operation: 'create_node',
          node_id: 'w1',
          revision: base + 1,
          previous_revision: base,
          client_save_id: null,
          replayed: false,
        });
        expect(await revision()).toBe(base + 1);
      });

      it('answers a stale base_revision with 409 revision_conflict, the current revision and the changed nodes', async () => {
        const base = await revision();
        await call(`${CANVAS}/nodes`, editorWrite({ method: 'POST', body: { node: text('w2'), base_revision: base } }));
        const response = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('w3'), base_revision: base } }),
        );
        expect(response.status).toBe(409);
        expect(errorOf(response.body)).toMatchObject({
          code: 'revision_conflict',
          details: { current_revision: base + 1, base_revision: base, changed_node_ids: ['w2'] },
        });
      });

      it('replays an identical client_save_id retry with its original receipt; another payload with the id is a new write', async () => {
        const base = await revision();
        const body = { node: text('saved'), base_revision: base, client_save_id: 'save-42' };
        const first = await call(`${CANVAS}/nodes`, editorWrite({ method: 'POST', body }));
        await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('after'), base_revision: base + 1 } }),
        );
        const retry = await call(`${CANVAS}/nodes`, editorWrite({ method: 'POST', body }));
        expect(first.status).toBe(201);
        expect(retry.status).toBe(200);
        expect(retry.body).toEqual({ ...(first.body as object), replayed: true });
        expect(await revision()).toBe(base + 2);
        const other = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { ...body, node: text('different'), base_revision: base + 2 } }),
        );
        expect(other.status).toBe(201);
        expect(other.body).toMatchObject({
          client_save_id: 'save-42',
          replayed: false,
          revision: base + 3,
          node_id: 'different',
        });
      });

      it.each([
        ['an unknown envelope property', { node: { ...text('x'), label: 'no' }, base_revision: 0 }, 'node'],
        [
          'position with a z',
          { node: { ...text('x'), position: { x: 0, y: 0, z: 1 } }, base_revision: 0 },
          'node.position',
        ],
        ['base_revision "1"', { node: text('x'), base_revision: '1' }, 'base_revision'],
        ['a missing node', { base_revision: 0 }, 'node'],
      ])('refuses %s with 400 and the offending path', async (_name, body, path) => {
        const response = await call(`${CANVAS}/nodes`, editorWrite({ method: 'POST', body }));
        expect(response.status).toBe(400);
        expect(errorOf(response.body).code).toBe('invalid_arguments');
        expect(
          (errorOf(response.body).details?.issues as Array<{ path: string }>).map((issue) => issue.path),
        ).toContain(path);
      });

      it('refuses a body that is not JSON (400), not application/json (415) or too large (413)', async () => {
        const notJson = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', rawBody: '{nope', headers: { 'content-type': 'application/json' } }),
        );
        expect([notJson.status, errorOf(notJson.body).code]).toEqual([400, 'invalid_arguments']);
        const wrongType = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', rawBody: '{}', headers: { 'content-type': 'text/plain' } }),
        );
        expect([wrongType.status, errorOf(wrongType.body).code]).toEqual([415, 'unsupported_media_type']);
        const huge = await call(
          `${CANVAS}/nodes`,
          editorWrite({
            method: 'POST',
            body: { node: text('x', { data: { content: 'x'.repeat(5 * 1024 * 1024) } }), base_revision: 0 },
          }),
        );
        expect([huge.status, errorOf(huge.body).code]).toEqual([413, 'payload_too_large']);
      });

      it('refuses an id already on the canvas (409) and a parentId naming no node (400)', async () => {
        const base = await revision();
        await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('dup'), base_revision: base } }),
        );
        const duplicate = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('dup'), base_revision: base + 1 } }),
        );
        expect([duplicate.status, errorOf(duplicate.body).code]).toEqual([409, 'already_exists']);
        const orphan = await call(
          `${CANVAS}/nodes`,
          editorWrite({
            method: 'POST',
            body: { node: text('orphan', { parentId: 'ghost' }), base_revision: base + 1 },
          }),
        );
        expect([orphan.status, errorOf(orphan.body).code]).toEqual([400, 'invalid_arguments']);
      });

      it('deletes a node and exactly its connected edges, reporting their ids', async () => {
        let base = await revision();
        for (const id of ['d-a', 'd-b', 'd-c']) {
          await call(
            `${CANVAS}/nodes`,
            editorWrite({ method: 'POST', body: { node: text(id), base_revision: base++ } }),
          );
        }
        for (const [id, source, to] of [
          ['e-ab', 'd-a', 'd-b'],
          ['e-bc', 'd-b', 'd-c'],
          ['e-ca', 'd-c', 'd-a'],
        ]) {
          const created = await call(
            `${CANVAS}/edges`,
            editorWrite({ method: 'POST', body: { edge: { id, source, target: to }, base_revision: base++ } }),
          );
          expect(created.status).toBe(201);
        }
        const deleted = await call(
          `${CANVAS}/nodes/d-a`,
          editorWrite({ method: 'DELETE', body: { base_revision: base } }),
        );
        expect(deleted.status).toBe(200);
        expect(deleted.body).toMatchObject({
          operation: 'delete_node',
          node_id: 'd-a',
          revision: base + 1,
          reparented_node_ids: [],
        });
        expect((deleted.body as { deleted_edge_ids: string[] }).deleted_edge_ids.sort()).toEqual(['e-ab', 'e-ca']);
        const snapshot = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        const edges = (snapshot.body as { layout: { edges: Array<{ id: string }> } }).layout.edges.map(
          (edge) => edge.id,
        );
        expect(edges).toContain('e-bc');
        expect(edges).not.toContain('e-ab');
        const again = await call(
          `${CANVAS}/nodes/d-a`,
          editorWrite({ method: 'DELETE', body: { base_revision: base + 1 } }),
        );
        expect([again.status, errorOf(again.body).code]).toEqual([404, 'not_found']);
      });

      it('deletes an edge, revision-checked', async () => {
        const base = await revision();
        await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('ed-a'), base_revision: base } }),
        );
        await call(
          `${CANVAS}/edges`,
          editorWrite({
            method: 'POST',
            body: { edge: { id: 'ed-self', source: 'ed-a', target: 'ed-a' }, base_revision: base + 1 },
          }),
        );
        const stale = await call(
          `${CANVAS}/edges/ed-self`,
          editorWrite({ method: 'DELETE', body: { base_revision: base } }),
        );
        expect(stale.status).toBe(409);
        const deleted = await call(
          `${CANVAS}/edges/ed-self`,
          editorWrite({ method: 'DELETE', body: { base_revision: base + 2 } }),
        );
        expect(deleted.body).toMatchObject({ operation: 'delete_edge', edge_id: 'ed-self', revision: base + 3 });
      });

      it('lets exactly one of 16 concurrent creates with the same base_revision succeed', async () => {
        const base = await revision();
        const responses = await Promise.all(
          Array.from({ length: 16 }, (_, index) =>
            call(
              `${CANVAS}/nodes`,
              editorWrite({ method: 'POST', body: { node: text(`race-${index}`), base_revision: base } }),
            ),
          ),
        );
        expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
        const conflicts = responses.filter((response) => response.status === 409);
        expect(conflicts).toHaveLength(15);
        for (const conflict of conflicts) expect(errorOf(conflict.body).details?.current_revision).toBe(base + 1);
        expect(await revision()).toBe(base + 1);
      });

      it('reaches revision 1,000 with 1,000 nodes after 1,000 sequential creates on a fresh canvas', async () => {
        await server.store.projects.createCanvas('p1', 'c-thousand', false);
        const chatRun = await server.store.chatRuns.createChatRun({
          projectId: 'p1',
          canvasId: 'c-thousand',
          actor: null,
          tokenId: world.tokens.editor.id,
          canEdit: true,
          expiresAt: null,
        });
        for (let index = 0; index < 1000; index += 1) {
          const response = await call('/api/v2/projects/p1/canvases/c-thousand/nodes', {
            method: 'POST',
            token: world.tokens.editor.secret,
            headers: { 'x-agent-run-id': chatRun },
            body: { node: text(`n${index}`), base_revision: index },
          });
          if (response.status !== 201) throw new Error(`create ${index} answered ${response.status}`);
        }
        const snapshot = await call('/api/v2/projects/p1/canvases/c-thousand/snapshot', {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        const layout = (snapshot.body as { layout: { revision: number; nodes: unknown[] } }).layout;
        expect(layout.revision).toBe(1000);
        expect(layout.nodes).toHaveLength(1000);
      }, 120_000);
    });

    describe('node runs', () => {
      const runsOf = (nodeId: string) => `${CANVAS}/nodes/${nodeId}/runs`;
      // A run spends credits: a token acting for no person presents its chat run, like a layout write.
      const editorRun = (headers: Record<string, string> = {}): ApiRequest => ({
        method: 'POST',
        token: world.tokens.editor.secret,
        headers: { 'x-agent-run-id': world.chatRuns.edit, ...headers },
      });
      let imageNodeReady = false;
      async function ensureImageNode(): Promise<void> {
        if (imageNodeReady) return;
        const node = {
          id: 'img',
          type: 'imageGenNode',
          position: { x: 0, y: 0 },
          data: { prompt: 'a fox', size: '1K', imageUrl: null, aspectRatio: '1:1', count: 2 },
        };
        const response = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node, base_revision: await revision() } }),
        );
        expect(response.status).toBe(201);
        imageNodeReady = true;
      }

      it('submits a run once per Idempotency-Key and refuses the key for another node', async () => {
        await ensureImageNode();
        const first = await call(runsOf('img'), editorRun({ 'idempotency-key': 'k-1' }));
        expect(first.status).toBe(202);
        expect(first.body).toMatchObject({
          status: 'queued',
          operation: 'image_generation',
          node_id: 'img',
          idempotency_key: 'k-1',
          cost: { estimated: 2 },
        });
        const again = await call(runsOf('img'), editorRun({ 'idempotency-key': 'k-1' }));
        expect(again.status).toBe(200);
        expect(again.headers.get('idempotency-replayed')).toBe('true');
        expect((again.body as { run_id: string }).run_id).toBe((first.body as { run_id: string }).run_id);
        const second = {
          id: 'img-2',
          type: 'imageGenNode',
          position: { x: 0, y: 0 },
          data: { prompt: 'a hare', size: '1K', imageUrl: null, aspectRatio: '1:1' },
        };
        await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: second, base_revision: await revision() } }),
        );
        const mismatch = await call(runsOf('img-2'), editorRun({ 'idempotency-key': 'k-1' }));
        expect([mismatch.status, errorOf(mismatch.body).code]).toEqual([422, 'idempotency_mismatch']);
      });

      it('refuses a paid run from a token without a chat run, and from another token presenting one', async () => {
        await ensureImageNode();
        const bare = await call(runsOf('img'), {
          method: 'POST',
          token: world.tokens.editor.secret,
          headers: { 'idempotency-key': 'bare' },
        });
        expect([bare.status, errorOf(bare.body).code]).toEqual([403, 'edit_not_authorized']);
        const borrowed = await call(runsOf('img'), {
          method: 'POST',
          token: world.tokens.workspaceEditor.secret,
          headers: { 'idempotency-key': 'borrowed', 'x-agent-run-id': world.chatRuns.edit },
        });
        expect([borrowed.status, errorOf(borrowed.body).code]).toEqual([403, 'edit_not_authorized']);
        const asPerson = await call(runsOf('img'), {
          method: 'POST',
          token: world.tokens.alice.secret,
          headers: { ...aliceHeaders(), 'idempotency-key': 'as-alice' },
        });
        expect(asPerson.status).toBe(202);
        expect(asPerson.body).toMatchObject({ triggered_by: { kind: 'user', name: 'alice' } });
      });

      it('refuses to run a node type that has nothing to run', async () => {
        await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('not-runnable'), base_revision: await revision() } }),
        );
        const response = await call(runsOf('not-runnable'), editorRun());
        expect([response.status, errorOf(response.body).code]).toEqual([422, 'not_runnable']);
        expect(errorOf(response.body).message).toContain('textAnnotationNode has nothing to run');
      });

      it('shows the pending resources of a queued run in node_states, never in the layout', async () => {
        await ensureImageNode();
        const submitted = await call(runsOf('img'), editorRun());
        const runId = (submitted.body as { run_id: string }).run_id;
        const snapshot = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        const body = snapshot.body as {
          node_states: Record<
            string,
            { externalRunId: string; externalRunStatus: string; resources: Array<{ status: string; asset_id: string }> }
          >;
          layout: { nodes: Array<{ id: string; data: Record<string, unknown> }> };
        };
        expect(body.node_states.img).toMatchObject({
          externalRunId: runId,
          externalRunStatus: 'claimed',
          isGenerating: true,
        });
        expect(body.node_states.img?.resources).toHaveLength(2);
        expect(
          body.node_states.img?.resources.every(
            (resource) => resource.status === 'pending' && resource.asset_id.startsWith('asset_'),
          ),
        ).toBe(true);
        const layoutNode = body.layout.nodes.find((node) => node.id === 'img');
        expect(layoutNode?.data.externalRunId).toBeUndefined();
      });

      it('reads and cancels a run only within its own project and canvas', async () => {
        await ensureImageNode();
        const submitted = await call(runsOf('img'), editorRun());
        const runId = (submitted.body as { run_id: string }).run_id;
        const read = await call(`${CANVAS}/runs/${runId}`, { token: world.tokens.viewer.secret });
        expect(read).toMatchObject({ status: 200, body: { run_id: runId, status: 'queued' } });
        const elsewhere = await call(`/api/v2/projects/p1/canvases/c-other/runs/${runId}`, {
          token: world.tokens.editor.secret,
        });
        expect([elsewhere.status, errorOf(elsewhere.body).code]).toEqual([404, 'not_found']);
        const chatRunAsRunId = await call(`${CANVAS}/runs/${world.chatRuns.edit}`, {
          token: world.tokens.editor.secret,
        });
        expect(errorOf(chatRunAsRunId.body).message).toContain('looks like a chat run id');

        const cancelled = await call(`${CANVAS}/runs/${runId}/cancel`, {
          method: 'POST',
          token: world.tokens.editor.secret,
        });
        expect(cancelled.body).toMatchObject({
          run_id: runId,
          status: 'cancel_requested',
          run: { status: 'cancelled', cost: { charged: 0 } },
        });
        const again = await call(`${CANVAS}/runs/${runId}/cancel`, {
          method: 'POST',
          token: world.tokens.editor.secret,
        });
        expect(again.body).toMatchObject({ status: 'cancelled' });
        const viewerCancel = await call(`${CANVAS}/runs/${runId}/cancel`, {
          method: 'POST',
          token: world.tokens.viewer.secret,
        });
        expect(viewerCancel.status).toBe(403);
      });

      it('refuses an Idempotency-Key with spaces', async () => {
        await ensureImageNode();
        const response = await call(runsOf('img'), editorRun({ 'idempotency-key': 'has space' }));
        expect([response.status, errorOf(response.body).code]).toEqual([400, 'invalid_arguments']);
      });
    });

    describe('routing', () => {
      it('answers 405 for another method on a known route and 404 for an unknown route', async () => {
        const wrongMethod = await call(`${CANVAS}/snapshot`, { method: 'DELETE', token: world.tokens.editor.secret });
        expect([wrongMethod.status, errorOf(wrongMethod.body).code]).toEqual([405, 'method_not_allowed']);
        const unknown = await call('/api/v2/nothing', { token: world.tokens.editor.secret });
        expect([unknown.status, errorOf(unknown.body).code]).toEqual([404, 'not_found']);
      });
    });

    describe('authentication', () => {
      it.each([
        ['no Authorization header', {}],
        ['"Bearer Bearer <token>"', { authorization: 'Bearer Bearer TOKEN' }],
        ['the Basic scheme', { authorization: 'Basic TOKEN' }],
        ['a cookie only', { cookie: 'session=TOKEN' }],
        ['an unknown token', { authorization: 'Bearer cmcp_unknown' }],
      ])('refuses %s with 401 and WWW-Authenticate: Bearer', async (_name, headers) => {
        const filled = Object.fromEntries(
          Object.entries(headers).map(([key, value]) => [key, value.replace('TOKEN', world.tokens.editor.secret)]),
        );
        const response = await call(`${CANVAS}/snapshot`, { headers: { ...SNAPSHOT_HEADERS, ...filled } });
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        expect(errorOf(response.body).code).toBe('unauthenticated');
      });

      it.each([
        ['revoked', 'This token was revoked.'],
        ['expired', 'This token has expired.'],
      ] as const)('refuses a %s token with 401', async (which, message) => {
        const response = await call(`${CANVAS}/snapshot`, {
          token: world.tokens[which].secret,
          headers: SNAPSHOT_HEADERS,
        });
        expect(response.status).toBe(401);
        expect(errorOf(response.body).message).toBe(message);
      });

      it('refuses a token in the query string even with a valid header', async () => {
        const response = await call(`${CANVAS}/snapshot?access_token=${world.tokens.editor.secret}`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        expect(response.status).toBe(401);
      });
    });

    describe('permission matrix', () => {
      type Case = [
        name: string,
        token: keyof World['tokens'],
        headers: Record<string, string>,
        expected: [number, string | null],
      ];
      const read: Case[] = [
        ['project editor token reads', 'editor', {}, [200, null]],
        ['project viewer token reads', 'viewer', {}, [200, null]],
        ['workspace token reads a project of its workspace', 'workspaceEditor', {}, [200, null]],
        ['token of another project is refused', 'otherProject', {}, [403, 'forbidden']],
        ['backend-kind token reads the backend API', 'backendKind', {}, [200, null]],
        ['an agent token is for /mcp only: 401 here', 'agentKind', {}, [401, 'unauthenticated']],
        ['gateway token without X-Canvas-On-Behalf-Of is refused', 'gateway', {}, [403, 'forbidden']],
        ['delegated member reads with its identity headers', 'alice', aliceHeaders(), [200, null]],
        ['delegated token without identity headers is refused', 'alice', {}, [403, 'forbidden']],
        ['delegated token asserting another subject is refused', 'alice', aliceHeaders('bob'), [403, 'forbidden']],
        ['a token without delegated identity refuses identity headers', 'editor', aliceHeaders(), [403, 'forbidden']],
        [
          'an unknown X-Service-Actor-* header is refused',
          'editor',
          { 'x-service-actor-scope': 'all' },
          [403, 'forbidden'],
        ],
        ['delegated viewer member reads', 'carol', aliceHeaders('carol'), [200, null]],
        ['delegated non-member is refused', 'mallory', aliceHeaders('mallory'), [403, 'forbidden']],
      ];
      it.each(read)('read: %s', async (_name, token, headers, [status, code]) => {
        const response = await call(`${CANVAS}/snapshot`, {
          token: world.tokens[token].secret,
          headers: { ...SNAPSHOT_HEADERS, ...headers },
        });
        expect(response.status).toBe(status);
        if (code) expect(errorOf(response.body).code).toBe(code);
      });

      type WriteCase = [
        name: string,
        token: keyof World['tokens'],
        chatRun: keyof World['chatRuns'] | null,
        headers: Record<string, string>,
        canvas: string,
        expected: [number, string],
      ];
      const write: WriteCase[] = [
        ['editor with an active edit chat run writes', 'editor', 'edit', {}, 'c1', [201, '']],
        [
          'workspace editor with its own edit chat run writes',
          'workspaceEditor',
          'workspaceEditor',
          {},
          'c1',
          [201, ''],
        ],
        [
          "another token's chat run is refused (bound to its presenter)",
          'workspaceEditor',
          'edit',
          {},
          'c1',
          [403, 'edit_not_authorized'],
        ],
        [
          'an agent token cannot write here, even with its chat run',
          'agentKind',
          'agentKind',
          {},
          'c1',
          [401, 'unauthenticated'],
        ],
        [
          'a backend token acting for an editor member writes as that person',
          'alice',
          null,
          aliceHeaders(),
          'c1',
          [201, ''],
        ],
        [
          'a backend token acting for a viewer member cannot write',
          'carol',
          null,
          aliceHeaders('carol'),
          'c1',
          [403, 'forbidden'],
        ],
        ['a bearer token alone never writes', 'editor', null, {}, 'c1', [403, 'edit_not_authorized']],
        ['a chat run without edit authorization', 'editor', 'noEdit', {}, 'c1', [403, 'edit_not_authorized']],
        ['an ended chat run', 'editor', 'ended', {}, 'c1', [403, 'edit_not_authorized']],
        ['an expired chat run', 'editor', 'expired', {}, 'c1', [403, 'edit_not_authorized']],
        ['a chat run of another canvas', 'editor', 'otherCanvas', {}, 'c1', [403, 'edit_not_authorized']],
        ["another actor's chat run", 'editor', 'alice', {}, 'c1', [403, 'edit_not_authorized']],
        ['a viewer token cannot write', 'viewer', 'edit', {}, 'c1', [403, 'forbidden']],
        ['delegated editor member with its own chat run writes', 'alice', 'alice', aliceHeaders(), 'c1', [201, '']],
        [
          'delegated editor with an actor-less chat run',
          'alice',
          'edit',
          aliceHeaders(),
          'c1',
          [403, 'edit_not_authorized'],
        ],
        ['delegated viewer member cannot write', 'carol', 'edit', aliceHeaders('carol'), 'c1', [403, 'forbidden']],
        ['token of another project cannot write', 'otherProject', 'edit', {}, 'c1', [403, 'forbidden']],
        ['a locked canvas refuses every write', 'editor', 'locked', {}, 'c-locked', [403, 'canvas_locked']],
      ];
      it.each(write)('write: %s', async (_name, token, chatRun, headers, canvas, [status, code]) => {
        const path = `/api/v2/projects/p1/canvases/${canvas}`;
        const snapshot = await call(`${path}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        const base = (snapshot.body as { layout: { revision: number } }).layout.revision;
        const response = await call(`${path}/nodes`, {
          method: 'POST',
          token: world.tokens[token].secret,
          headers: { ...headers, ...(chatRun ? { 'x-agent-run-id': world.chatRuns[chatRun] } : {}) },
          body: { node: text(`m-${Math.random().toString(36).slice(2, 8)}`), base_revision: base },
        });
        expect(response.status).toBe(status);
        if (code) expect(errorOf(response.body).code).toBe(code);
      });
    });

    describe('gateway tokens', () => {
      it('act only on behalf of a valid agent token, within their own scope', async () => {
        const asAgent = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.gateway.secret,
          headers: { ...SNAPSHOT_HEADERS, 'x-canvas-on-behalf-of': world.tokens.agentKind.id },
        });
        expect(asAgent.status).toBe(200);
        const outOfGatewayScope = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.foreignGateway.secret,
          headers: { ...SNAPSHOT_HEADERS, 'x-canvas-on-behalf-of': world.tokens.agentKind.id },
        });
        expect(outOfGatewayScope.status).toBe(403);
        const forBackendToken = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.gateway.secret,
          headers: { ...SNAPSHOT_HEADERS, 'x-canvas-on-behalf-of': world.tokens.editor.id },
        });
        expect(forBackendToken.status).toBe(401);
        const asRevoked = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.gateway.secret,
          headers: { ...SNAPSHOT_HEADERS, 'x-canvas-on-behalf-of': world.tokens.revoked.id },
        });
        expect(asRevoked.status).toBe(401);
        const agentActingForAnother = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.otherProject.secret,
          headers: { ...SNAPSHOT_HEADERS, 'x-canvas-on-behalf-of': world.tokens.agentKind.id },
        });
        expect(agentActingForAnother.status).toBe(403);
      });

      it('introspect agent tokens by hash, and only for gateways', async () => {
        const active = await call('/api/v1/auth/introspect', {
          method: 'POST',
          token: world.tokens.gateway.secret,
          body: { token_sha256: sha256Hex(world.tokens.agentKind.secret) },
        });
        expect(active.body).toMatchObject({
          active: true,
          principal: { token_id: world.tokens.agentKind.id, kind: 'agent', projects: ['p1'], required_actor: null },
        });
        const revoked = await call('/api/v1/auth/introspect', {
          method: 'POST',
          token: world.tokens.gateway.secret,
          body: { token_sha256: sha256Hex(world.tokens.revoked.secret) },
        });
        expect(revoked.body).toEqual({ active: false, reason: 'This token was revoked.' });
        const notGateway = await call('/api/v1/auth/introspect', {
          method: 'POST',
          token: world.tokens.editor.secret,
          body: { token_sha256: sha256Hex(world.tokens.alice.secret) },
        });
        expect(notGateway.status).toBe(403);
      });
    });

    describe('hardening', () => {
      const url = (path: string) => `${server.url}${path}`;

      it('refuses two Authorization headers with 401', async () => {
        const response = await rawRequest(url(`${CANVAS}/snapshot`), {
          method: 'GET',
          headers: { authorization: [`Bearer ${world.tokens.editor.secret}`, 'Bearer garbage'], ...SNAPSHOT_HEADERS },
        });
        expect(response.status).toBe(401);
        expect((response.json as { error: { message: string } }).error.message).toContain(
          'More than one Authorization header',
        );
      });

      it.each([
        ['application/json; charset=utf-16', 415],
        ['application/json-patch+json', 415],
        ['application/merge-patch+json', 415],
        ['application/json; charset=utf-8', 409],
      ])('answers a write with Content-Type %s with %i', async (contentType, status) => {
        const response = await call(
          `${CANVAS}/nodes`,
          editorWrite({
            method: 'POST',
            rawBody: JSON.stringify({ node: text('ct'), base_revision: 0 }),
            headers: { 'content-type': contentType },
          }),
        );
        expect(response.status).toBe(status);
      });

      it('refuses a body that is not valid UTF-8 with 400', async () => {
        const body = Buffer.concat([
          Buffer.from('{"node":{"id":"'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"},"base_revision":0}'),
        ]);
        const response = await rawRequest(url(`${CANVAS}/nodes`), {
          headers: {
            authorization: `Bearer ${world.tokens.editor.secret}`,
            'x-agent-run-id': world.chatRuns.edit,
            'content-type': 'application/json',
          },
          body,
        });
        expect(response.status).toBe(400);
        expect((response.json as { error: { message: string } }).error.message).toContain('UTF-8');
      });

      it('checks the caller before it reads a large body: a viewer gets 403, an editor a short 400', async () => {
        const operations = new Array(3000)
          .fill('{"op":"update_node","node_id":"x","set":{"position":{"x":"a","y":"b"},"zIndex":1.5}}')
          .join(',');
        const rawBody = `{"base_revision":0,"operations":[${operations}]}`;
        expect(rawBody.length).toBeGreaterThan(64 * 1024);
        const viewer = await call(`${CANVAS}/changes`, {
          method: 'POST',
          token: world.tokens.viewer.secret,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect([viewer.status, errorOf(viewer.body).code]).toEqual([403, 'forbidden']);
        const editor = await call(
          `${CANVAS}/changes`,
          editorWrite({ method: 'POST', rawBody, headers: { 'content-type': 'application/json' } }),
        );
        expect([editor.status, errorOf(editor.body).code]).toEqual([400, 'invalid_arguments']);
        expect(JSON.stringify(editor.body).length).toBeLessThan(16 * 1024);
      });

      it('closes the connection when it answers before the body arrived, so a client never reuses it', async () => {
        const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const request = httpRequest(url(`${CANVAS}/changes`), {
            method: 'POST',
            headers: {
              authorization: `Bearer ${world.tokens.viewer.secret}`,
              'content-type': 'application/json',
              'content-length': 500_000,
            },
          });
          request.on('response', (response) => {
            response.resume();
            resolve({ status: response.statusCode ?? 0, connection: response.headers.connection });
            request.destroy();
          });
          request.on('error', reject);
          // Only the first bytes: the refusal must not wait for the rest.
          request.write('{"base_revision":0,"operations":[');
        });
        expect(answer).toEqual({ status: 403, connection: 'close' });
      });

      it('refuses a "__proto__" key anywhere in a body, naming it', async () => {
        const rawBody =
          '{"node":{"id":"p","type":"textAnnotationNode","position":{"x":0,"y":0},"data":{"content":"c"},"__proto__":{"x":1}},"base_revision":0}';
        const response = await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', rawBody, headers: { 'content-type': 'application/json' } }),
        );
        expect(response.status).toBe(400);
        expect(errorOf(response.body).details?.issues).toEqual([expect.objectContaining({ path: 'node.__proto__' })]);
      });
    });

    describe('edits, batches and revert', () => {
      it('PATCH moves a node at one revision, and refuses an edit that makes the node invalid with its field path', async () => {
        const base = await revision();
        await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('patched'), base_revision: base } }),
        );
        const moved = await call(
          `${CANVAS}/nodes/patched`,
          editorWrite({ method: 'PATCH', body: { base_revision: base + 1, set: { position: { x: 42, y: 7 } } } }),
        );
        expect(moved).toMatchObject({
          status: 200,
          body: { operation: 'update_node', node_id: 'patched', revision: base + 2 },
        });
        const invalid = await call(
          `${CANVAS}/nodes/patched`,
          editorWrite({
            method: 'PATCH',
            body: { base_revision: base + 2, set: { data: { displayName: 'no content' } } },
          }),
        );
        expect([invalid.status, errorOf(invalid.body).code]).toEqual([400, 'invalid_arguments']);
        expect((errorOf(invalid.body).details?.issues as Array<{ path: string }>).map((issue) => issue.path)).toContain(
          'set.data.content',
        );
        const typeChange = await call(
          `${CANVAS}/nodes/patched`,
          editorWrite({ method: 'PATCH', body: { base_revision: base + 2, set: { type: 'groupNode' } } }),
        );
        expect([typeChange.status, errorOf(typeChange.body).code]).toEqual([400, 'invalid_arguments']);
        expect(await revision()).toBe(base + 2);
        const stale = await call(
          `${CANVAS}/nodes/patched`,
          editorWrite({ method: 'PATCH', body: { base_revision: base, set: { hidden: true } } }),
        );
        expect([stale.status, errorOf(stale.body).code]).toEqual([409, 'revision_conflict']);
      });

      it('applies a batch as one revision; one failing at operation 150 of 200 writes nothing and names it', async () => {
        const base = await revision();
        const creates = Array.from({ length: 150 }, (_, index) => ({
          op: 'create_node',
          node: text(`batch-${index}`),
        }));
        const failing = [
          ...creates,
          { op: 'create_node', node: { ...text('bad'), type: 'textNode' } },
          ...creates.slice(0, 49).map((op) => ({ ...op, node: { ...op.node, id: `${op.node.id}-b` } })),
        ];
        expect(failing).toHaveLength(200);
        const refused = await call(
          `${CANVAS}/changes`,
          editorWrite({ method: 'POST', body: { base_revision: base, operations: failing } }),
        );
        expect([refused.status, errorOf(refused.body).code]).toEqual([400, 'invalid_arguments']);
        expect((errorOf(refused.body).details?.issues as Array<{ path: string }>).map((issue) => issue.path)).toContain(
          'operations.150.node.type',
        );
        expect(await revision()).toBe(base);
        const snapshot = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        expect(JSON.stringify(snapshot.body)).not.toContain('batch-0');

        const applied = await call(
          `${CANVAS}/changes`,
          editorWrite({ method: 'POST', body: { base_revision: base, operations: creates.slice(0, 3) } }),
        );
        expect(applied).toMatchObject({ status: 201, body: { operation: 'batch', revision: base + 1 } });
        const tooMany = await call(
          `${CANVAS}/changes`,
          editorWrite({ method: 'POST', body: { base_revision: base + 1, operations: [...creates, ...creates] } }),
        );
        expect(tooMany.status).toBe(400);
      });

      it('deletes an edge inside a batch (delete_edge) in the same revision as the other operations, and names a missing one', async () => {
        const base = await revision();
        const created = await call(
          `${CANVAS}/changes`,
          editorWrite({
            method: 'POST',
            body: {
              base_revision: base,
              operations: [
                { op: 'create_node', node: text('be-a') },
                { op: 'create_node', node: text('be-b') },
                { op: 'create_edge', edge: { id: 'be-ab', source: 'be-a', target: 'be-b' } },
              ],
            },
          }),
        );
        expect(created).toMatchObject({ status: 201, body: { revision: base + 1 } });
        const applied = await call(
          `${CANVAS}/changes`,
          editorWrite({
            method: 'POST',
            body: {
              base_revision: base + 1,
              operations: [
                { op: 'delete_edge', edge_id: 'be-ab' },
                { op: 'update_node', node_id: 'be-a', set: { position: { x: 5, y: 6 } } },
              ],
            },
          }),
        );
        expect(applied).toMatchObject({
          status: 201,
          body: {
            operation: 'batch',
            revision: base + 2,
            results: [
              { op: 'delete_edge', edge_id: 'be-ab' },
              { op: 'update_node', node_id: 'be-a' },
            ],
          },
        });
        const snapshot = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        const layout = (
          snapshot.body as { layout: { nodes: Array<{ id: string; position: unknown }>; edges: Array<{ id: string }> } }
        ).layout;
        expect(layout.edges.map((edge) => edge.id)).not.toContain('be-ab');
        expect(layout.nodes.find((node) => node.id === 'be-a')?.position).toEqual({ x: 5, y: 6 });
        const again = await call(
          `${CANVAS}/changes`,
          editorWrite({
            method: 'POST',
            body: {
              base_revision: base + 2,
              operations: [
                { op: 'update_node', node_id: 'be-b', set: { hidden: true } },
                { op: 'delete_edge', edge_id: 'be-ab' },
              ],
            },
          }),
        );
        expect([again.status, errorOf(again.body).code]).toEqual([404, 'not_found']);
        expect(errorOf(again.body).details).toMatchObject({
          edge_id: 'be-ab',
          operation_index: 1,
          path: 'operations.1.edge_id',
        });
        expect(await revision()).toBe(base + 2);
      });

      it('refuses a PATCH whose data nests deeper than 64 levels with invalid_arguments naming the field, and keeps one within it', async () => {
        const base = await revision();
        const beat = { id: 'deep-beat', type: 'beatContextNode', position: { x: 0, y: 0 }, data: { content: 'beat' } };
        await call(`${CANVAS}/nodes`, editorWrite({ method: 'POST', body: { node: beat, base_revision: base } }));
        const nested = (levels: number): unknown => (levels === 0 ? 1 : { a: nested(levels - 1) });
        const deep = await call(
          `${CANVAS}/nodes/deep-beat`,
          editorWrite({
            method: 'PATCH',
            body: { base_revision: base + 1, set: { data: { mainline_context: nested(70) } } },
          }),
        );
        expect([deep.status, errorOf(deep.body).code]).toEqual([400, 'invalid_arguments']);
        const [issue] = errorOf(deep.body).details?.issues as Array<{ path: string; message: string }>;
        expect(issue!.path.startsWith('set.data.mainline_context.a')).toBe(true);
        expect(issue!.message).toContain('64');
        expect(await revision()).toBe(base + 1);
        const within = await call(
          `${CANVAS}/nodes/deep-beat`,
          editorWrite({
            method: 'PATCH',
            body: { base_revision: base + 1, set: { data: { mainline_context: nested(50) } } },
          }),
        );
        expect(within).toMatchObject({ status: 200, body: { revision: base + 2 } });
      });

      it('checks the data of a large edit against the type of the node it edits, in a PATCH and in a batch (body check worker)', async () => {
        const base = await revision();
        const image = {
          id: 'large-edit',
          type: 'imageGenNode',
          position: { x: 0, y: 0 },
          data: { prompt: 'p', size: '1K', imageUrl: null, aspectRatio: '1:1' },
        };
        await call(`${CANVAS}/nodes`, editorWrite({ method: 'POST', body: { node: image, base_revision: base } }));
        // Over 64 KiB: checked on the worker thread before the write.
        const marks = Array.from({ length: 1000 }, (_, index) => ({
          x: index,
          y: index,
          label: `mark ${index}`.padEnd(60, '.'),
        }));
        const valid = { ...image.data, marks };
        expect(JSON.stringify(valid).length).toBeGreaterThan(64 * 1024);
        const patched = await call(
          `${CANVAS}/nodes/large-edit`,
          editorWrite({ method: 'PATCH', body: { base_revision: base + 1, set: { data: valid } } }),
        );
        expect(patched).toMatchObject({ status: 200, body: { revision: base + 2 } });
        const invalid = await call(
          `${CANVAS}/nodes/large-edit`,
          editorWrite({ method: 'PATCH', body: { base_revision: base + 2, set: { data: { ...valid, count: 3 } } } }),
        );
        expect([invalid.status, errorOf(invalid.body).code]).toEqual([400, 'invalid_arguments']);
        expect((errorOf(invalid.body).details?.issues as Array<{ path: string }>).map((issue) => issue.path)).toEqual([
          'set.data.count',
        ]);
        // In a batch: a stored node against its stored type, a node the batch creates against the type it is created with.
        const batch = (operations: unknown[]) =>
          call(`${CANVAS}/changes`, editorWrite({ method: 'POST', body: { base_revision: base + 2, operations } }));
        const createdAsText = await batch([
          { op: 'create_node', node: text('large-text') },
          { op: 'update_node', node_id: 'large-edit', set: { data: valid } },
          { op: 'update_node', node_id: 'large-text', set: { data: valid } },
        ]);
        expect([createdAsText.status, errorOf(createdAsText.body).code]).toEqual([400, 'invalid_arguments']);
        expect(
          (errorOf(createdAsText.body).details?.issues as Array<{ path: string }>)[0]!.path.startsWith(
            'operations.2.set.data',
          ),
        ).toBe(true);
        const storedInvalid = await batch([
          { op: 'update_node', node_id: 'large-edit', set: { data: { ...valid, size: '3K' } } },
        ]);
        expect(
          (errorOf(storedInvalid.body).details?.issues as Array<{ path: string }>).map((issue) => issue.path),
        ).toEqual(['operations.0.set.data.size']);
        expect(await revision()).toBe(base + 2);
        const applied = await batch([
          { op: 'create_node', node: { ...image, id: 'large-image' } },
          { op: 'update_node', node_id: 'large-image', set: { data: valid } },
        ]);
        expect(applied).toMatchObject({ status: 201, body: { revision: base + 3 } });
      });

      it('reverts to an earlier revision: the exact earlier layout, as a new revision', async () => {
        const before = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        const base = (before.body as { layout: { revision: number } }).layout.revision;
        await call(
          `${CANVAS}/nodes`,
          editorWrite({ method: 'POST', body: { node: text('to-undo'), base_revision: base } }),
        );
        const reverted = await call(
          `${CANVAS}/revert`,
          editorWrite({ method: 'POST', body: { base_revision: base + 1, to_revision: base } }),
        );
        expect(reverted).toMatchObject({
          status: 201,
          body: { operation: 'revert', to_revision: base, revision: base + 2, changed_node_ids: ['to-undo'] },
        });
        const after = await call(`${CANVAS}/snapshot`, {
          token: world.tokens.editor.secret,
          headers: SNAPSHOT_HEADERS,
        });
        const layoutOf = (body: unknown) => (body as { layout: { nodes: unknown[]; edges: unknown[] } }).layout;
        expect(layoutOf(after.body).nodes).toEqual(layoutOf(before.body).nodes);
        expect(layoutOf(after.body).edges).toEqual(layoutOf(before.body).edges);
      });
    });

    describe('logs', () => {
      it('carry a request id on every request line and never a token', () => {
        const lines = server.logs.join('');
        expect(lines.length).toBeGreaterThan(0);
        for (const { secret } of Object.values(world.tokens)) expect(lines).not.toContain(secret);
        const requestLines = server.logs
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.msg === 'request');
        expect(requestLines.length).toBeGreaterThan(50);
        expect(requestLines.every((line) => typeof line.request_id === 'string')).toBe(true);
        expect(
          requestLines.some((line) => typeof line.agent_run_id === 'string' && typeof line.token_id === 'string'),
        ).toBe(true);
      });
    });
  });
});
