import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION } from '../../src/contract/index.js';
import { connectClient, structured, toolError } from '../support/mcp.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { IDP, seedWorld, type World } from './world.js';

/**
 * People sign in with one-time links, edit the canvas as themselves (no chat run), open chat runs and agent tokens for
 * their agents, and read the history, over real HTTP on SQLite and PostgreSQL.
 */

const CANVAS = '/api/v2/projects/p1/canvases/c1';
const SNAPSHOT = { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION };

function errorOf(body: unknown) {
  return (body as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

describe.each(STORE_TARGETS)('people on the canvas: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let world: World;
    const olga = { issuer: IDP, subject: 'olga' };

    beforeAll(async () => {
      server = await startTestServer(target);
      world = await seedWorld(server.store, { kind: 'backend' });
      await server.store.projects.addMember('p1', olga, 'owner');
    });
    afterAll(async () => server?.close());

    async function link(subject: string, options: { expiresInMs?: number; canvas?: boolean } = {}): Promise<string> {
      const secret = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject },
        {
          expiresInMs: options.expiresInMs ?? 60_000,
          projectId: options.canvas === false ? null : 'p1',
          canvasId: options.canvas === false ? null : 'c1',
        },
      );
      return `/auth/login?token=${secret}`;
    }

    /** Signs in through a link as a browser would; returns the cookie header for later requests. */
    async function signIn(subject: string): Promise<string> {
      const { response, cookie } = await signInWithLink(`${server.url}${await link(subject)}`);
      expect(response.status).toBe(303);
      return cookie;
    }

    /** A write from our own page: the cookie, the server's origin, and X-Requested-By. */
    const fromPage = (cookie: string, request: ApiRequest): ApiRequest => ({
      ...request,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });

    async function revision(): Promise<number> {
      const response = await api(server.url, `${CANVAS}/snapshot`, {
        token: world.tokens.editor.secret,
        headers: SNAPSHOT,
      });
      return (response.body as { layout: { revision: number } }).layout.revision;
    }

    describe('sign-in', () => {
      it('opens a session from a one-time link: an HttpOnly, SameSite=Lax cookie, and a redirect to the canvas', async () => {
        const { response } = await signInWithLink(`${server.url}${await link('alice')}`);
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe('/p/p1/c/c1');
        const cookie = response.headers.get('set-cookie')!;
        expect(cookie).toMatch(/^canvas_mcp_session=sess_/);
        expect(cookie).toContain('HttpOnly');
        expect(cookie).toContain('SameSite=Lax');
        expect(cookie).toContain('Path=/');
        expect(cookie).not.toContain('Secure');
        const me = await api(server.url, '/api/v1/me', { headers: { cookie: cookie.split(';', 1)[0]! } });
        expect(me.body).toMatchObject({
          kind: 'person',
          person: { issuer: IDP, subject: 'alice' },
          projects: [{ project_id: 'p1', role: 'editor' }],
        });
      });

      it('refuses a link used twice, an expired one and a made-up one, with a page that says what to do', async () => {
        const once = await link('alice');
        expect((await signInWithLink(`${server.url}${once}`)).response.status).toBe(303);
        for (const path of [once, await link('alice', { expiresInMs: -1 }), '/auth/login?token=login_nope']) {
          const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
          expect(response.status).toBe(401);
          expect(response.headers.get('content-type')).toContain('text/html');
          expect(await response.text()).toContain('admin login-link');
        }
      });

      it('accepts the cookie on the REST API only: /mcp with a session cookie and no token is 401', async () => {
        const cookie = await signIn('alice');
        const snapshot = await api(server.url, `${CANVAS}/snapshot`, { headers: { cookie, ...SNAPSHOT } });
        expect(snapshot.status).toBe(200);
        const mcp = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: {
            cookie,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } },
          }),
        });
        expect(mcp.status).toBe(401);
      });

      it('ends a session on logout and on revocation', async () => {
        const cookie = await signIn('alice');
        const logout = await api(server.url, '/auth/logout', fromPage(cookie, { method: 'POST' }));
        expect(logout.status).toBe(204);
        expect((await api(server.url, '/api/v1/me', { headers: { cookie } })).status).toBe(401);
        const other = await signIn('alice');
        const sessions = await server.store.sessions.listSessions();
        await server.store.sessions.endSession(sessions[0]!.id);
        expect((await api(server.url, '/api/v1/me', { headers: { cookie: other } })).status).toBe(401);
      });
    });

    describe('writes by people', () => {
      it('lets an editor edit as themselves from our page, with no chat run; the history names them', async () => {
        const cookie = await signIn('alice');
        const base = await revision();
        const created = await api(
          server.url,
          `${CANVAS}/nodes`,
          fromPage(cookie, {
            method: 'POST',
            body: {
              node: { id: 'by-alice', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'hi' } },
              base_revision: base,
            },
          }),
        );
        expect(created.status).toBe(201);
        const moved = await api(
          server.url,
          `${CANVAS}/nodes/by-alice`,
          fromPage(cookie, { method: 'PATCH', body: { base_revision: base + 1, set: { position: { x: 9, y: 9 } } } }),
        );
        expect(moved).toMatchObject({ status: 200, body: { revision: base + 2 } });
        const history = await api(server.url, `${CANVAS}/history?limit=2`, { headers: { cookie } });
        expect(history.body).toMatchObject({
          revisions: [
            {
              revision: base + 2,
              operation: 'update_node',
              author: { kind: 'person', issuer: IDP, subject: 'alice' },
              changes: [{ kind: 'node', id: 'by-alice', change: 'update' }],
            },
            { revision: base + 1, operation: 'create_node', author: { kind: 'person', subject: 'alice' } },
          ],
        });
      });

      it('refuses a cookie write that does not come from our page (CSRF), and a cross-site form post', async () => {
        const cookie = await signIn('alice');
        const body = { base_revision: await revision(), set: { hidden: true } };
        const noHeader = await api(server.url, `${CANVAS}/nodes/by-alice`, {
          method: 'PATCH',
          headers: { cookie, origin: server.url },
          body,
        });
        expect([noHeader.status, errorOf(noHeader.body).code]).toEqual([403, 'forbidden']);
        const otherOrigin = await api(
          server.url,
          `${CANVAS}/nodes/by-alice`,
          fromPage(cookie, { method: 'PATCH', body, headers: { origin: 'https://evil.example' } }),
        );
        expect(otherOrigin.status).toBe(403);
        const form = await fetch(`${server.url}${CANVAS}/nodes`, {
          method: 'POST',
          headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
          body: 'node=%7B%7D&base_revision=0',
        });
        expect(form.status).toBe(403);
      });

      it('refuses every write by a viewer, and lets them read', async () => {
        const cookie = await signIn('carol');
        expect((await api(server.url, `${CANVAS}/snapshot`, { headers: { cookie, ...SNAPSHOT } })).status).toBe(200);
        const write = await api(
          server.url,
          `${CANVAS}/nodes`,
          fromPage(cookie, {
            method: 'POST',
            body: {
              node: { id: 'by-carol', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'no' } },
              base_revision: await revision(),
            },
          }),
        );
        expect([write.status, errorOf(write.body).code]).toEqual([403, 'forbidden']);
      });

      it('needs an Idempotency-Key for a run a person starts, and records the person', async () => {
        const cookie = await signIn('alice');
        await api(
          server.url,
          `${CANVAS}/nodes`,
          fromPage(cookie, {
            method: 'POST',
            body: {
              node: {
                id: 'alice-img',
                type: 'imageGenNode',
                position: { x: 0, y: 0 },
                data: { prompt: 'a gull', size: '1K', imageUrl: null, aspectRatio: '1:1' },
              },
              base_revision: await revision(),
            },
          }),
        );
        const keyless = await api(server.url, `${CANVAS}/nodes/alice-img/runs`, fromPage(cookie, { method: 'POST' }));
        expect([keyless.status, errorOf(keyless.body).code]).toEqual([400, 'invalid_arguments']);
        const run = await api(
          server.url,
          `${CANVAS}/nodes/alice-img/runs`,
          fromPage(cookie, { method: 'POST', headers: { 'idempotency-key': 'click-1' } }),
        );
        expect(run).toMatchObject({ status: 202, body: { triggered_by: { kind: 'user', name: 'alice' } } });

        // Cancelling needs editor or owner too: a viewer is refused, the editor's cancel is accepted.
        const runId = (run.body as { run_id: string }).run_id;
        const viewer = await signIn('carol');
        const refused = await api(server.url, `${CANVAS}/runs/${runId}/cancel`, fromPage(viewer, { method: 'POST' }));
        expect([refused.status, errorOf(refused.body).code]).toEqual([403, 'forbidden']);
        const cancelled = await api(server.url, `${CANVAS}/runs/${runId}/cancel`, fromPage(cookie, { method: 'POST' }));
        expect(cancelled).toMatchObject({
          status: 200,
          body: { run_id: runId, status: 'cancel_requested', run: { status: 'cancelled', cost: { charged: 0 } } },
        });
      });

      it('pages the history newest first with before and next_before, naming the person an agent acted for', async () => {
        const cookie = await signIn('alice');
        const start = await revision();
        for (let index = 0; index < 3; index += 1) {
          const created = await api(
            server.url,
            `${CANVAS}/nodes`,
            fromPage(cookie, {
              method: 'POST',
              body: {
                node: {
                  id: `page-${start}-${index}`,
                  type: 'textAnnotationNode',
                  position: { x: 0, y: 0 },
                  data: { content: 'p' },
                },
                base_revision: start + index,
              },
            }),
          );
          expect(created.status).toBe(201);
        }
        // A backend token issued for alice, presenting her chat run: an agent acting on her behalf.
        const delegated = await api(server.url, `${CANVAS}/nodes`, {
          method: 'POST',
          token: world.tokens.alice.secret,
          headers: {
            'x-agent-run-id': world.chatRuns.alice,
            'x-service-actor-issuer': IDP,
            'x-service-actor-subject': 'alice',
          },
          body: {
            node: {
              id: `page-${start}-agent`,
              type: 'textAnnotationNode',
              position: { x: 0, y: 0 },
              data: { content: 'a' },
            },
            base_revision: start + 3,
          },
        });
        expect(delegated.status).toBe(201);

        type Page = {
          revisions: Array<{ revision: number; author: Record<string, unknown> }>;
          next_before: number | null;
        };
        const first = (await api(server.url, `${CANVAS}/history?limit=2`, { headers: { cookie } })).body as Page;
        expect(first.revisions.map((entry) => entry.revision)).toEqual([start + 4, start + 3]);
        expect(first.revisions[0]!.author).toMatchObject({
          kind: 'agent',
          token_id: world.tokens.alice.id,
          agent_run_id: world.chatRuns.alice,
          on_behalf_of: { issuer: IDP, subject: 'alice' },
        });
        expect(first.next_before).toBe(start + 3);
        const second = (
          await api(server.url, `${CANVAS}/history?limit=2&before=${first.next_before}`, { headers: { cookie } })
        ).body as Page;
        expect(second.revisions.map((entry) => entry.revision)).toEqual([start + 2, start + 1]);
      });
    });

    describe('chat runs and agent tokens by API', () => {
      it('lets an owner issue an agent token and open a chat run for it; only that token may present it; ending it stops writes', async () => {
        const cookie = await signIn('olga');
        const issued = await api(
          server.url,
          '/api/v1/tokens',
          fromPage(cookie, { method: 'POST', body: { name: 'Claude on my laptop', project_id: 'p1' } }),
        );
        expect(issued).toMatchObject({
          status: 201,
          body: {
            kind: 'agent',
            role: 'editor',
            projects: ['p1'],
            issued_by: { subject: 'olga' },
            token: expect.stringMatching(/^cmcp_/),
          },
        });
        const { token, token_id } = issued.body as { token: string; token_id: string };
        const listed = await api(server.url, '/api/v1/tokens?project_id=p1', { headers: { cookie } });
        expect(JSON.stringify(listed.body)).not.toContain(token);

        const opened = await api(
          server.url,
          `${CANVAS}/chat-runs`,
          fromPage(cookie, { method: 'POST', body: { edit: true, token_id, expires_in: 3600 } }),
        );
        expect(opened).toMatchObject({
          status: 201,
          body: { can_edit: true, token_id, opened_by: { subject: 'olga' }, acts_for: null },
        });
        const chatRun = (opened.body as { agent_run_id: string }).agent_run_id;
        const runs = await api(server.url, `${CANVAS}/chat-runs`, { headers: { cookie } });
        expect(
          (runs.body as { chat_runs: Array<{ agent_run_id: string }> }).chat_runs.map((run) => run.agent_run_id),
        ).toContain(chatRun);

        const agent = await connectClient(server.server.mcpUrl, {
          Authorization: `Bearer ${token}`,
          'X-Agent-Run-Id': chatRun,
        });
        const intruder = await connectClient(server.server.mcpUrl, {
          Authorization: `Bearer ${world.tokens.agentKind.secret}`,
          'X-Agent-Run-Id': chatRun,
        });
        try {
          const node = (id: string) => ({
            id,
            type: 'textAnnotationNode',
            position: { x: 0, y: 0 },
            data: { content: id },
          });
          const created = await agent.callTool({
            name: 'create_canvas_node',
            arguments: { project_id: 'p1', canvas_id: 'c1', base_revision: await revision(), node: node('by-agent') },
          });
          expect(created.isError).toBeFalsy();
          const borrowed = await intruder.callTool({
            name: 'create_canvas_node',
            arguments: {
              project_id: 'p1',
              canvas_id: 'c1',
              base_revision: await revision(),
              node: node('by-intruder'),
            },
          });
          expect(toolError(borrowed)).toMatchObject({ code: 'edit_not_authorized' });
          const history = await api(server.url, `${CANVAS}/history?limit=1`, { headers: { cookie } });
          expect((history.body as { revisions: Array<{ author: unknown }> }).revisions[0]!.author).toEqual({
            kind: 'agent',
            token_id,
            token_name: 'Claude on my laptop',
            agent_run_id: chatRun,
          });

          const ended = await api(server.url, `${CANVAS}/chat-runs/${chatRun}`, fromPage(cookie, { method: 'DELETE' }));
          expect(ended.status).toBe(200);
          const after = await agent.callTool({
            name: 'create_canvas_node',
            arguments: { project_id: 'p1', canvas_id: 'c1', base_revision: await revision(), node: node('too-late') },
          });
          expect(toolError(after)).toMatchObject({ code: 'edit_not_authorized' });
          expect(
            structured(await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } })),
          ).toHaveProperty('layout');
        } finally {
          await agent.close();
          await intruder.close();
        }
        const revoked = await api(server.url, `/api/v1/tokens/${token_id}`, fromPage(cookie, { method: 'DELETE' }));
        expect(revoked).toMatchObject({ status: 200, body: { revoked_at: expect.any(String) } });
      });

      it('refuses a chat run or token id holding U+0000 with 400 naming it, on every database', async () => {
        const cookie = await signIn('olga');
        const opened = await api(
          server.url,
          `${CANVAS}/chat-runs`,
          fromPage(cookie, { method: 'POST', body: { token_id: 'tok_\u0000' } }),
        );
        expect([opened.status, errorOf(opened.body).code]).toEqual([400, 'invalid_arguments']);
        expect(errorOf(opened.body).details?.issues).toEqual([expect.objectContaining({ path: 'token_id' })]);
        for (const [path, param] of [
          [`${CANVAS}/chat-runs/chat_%00`, 'chat_run_id'],
          ['/api/v1/tokens/tok_%00', 'token_id'],
        ] as const) {
          const response = await api(server.url, path, fromPage(cookie, { method: 'DELETE' }));
          expect([path, response.status, errorOf(response.body).code]).toEqual([path, 400, 'invalid_arguments']);
          expect(errorOf(response.body).details?.issues).toEqual([expect.objectContaining({ path: param })]);
        }
      });

      it('lets editors open chat runs bound to themselves but not issue tokens; viewers neither', async () => {
        const alice = await signIn('alice');
        const opened = await api(server.url, `${CANVAS}/chat-runs`, fromPage(alice, { method: 'POST', body: {} }));
        expect(opened).toMatchObject({ status: 201, body: { acts_for: { subject: 'alice' }, token_id: null } });
        const token = await api(
          server.url,
          '/api/v1/tokens',
          fromPage(alice, { method: 'POST', body: { name: 'mine', project_id: 'p1' } }),
        );
        expect([token.status, errorOf(token.body).code]).toEqual([403, 'forbidden']);
        const carol = await signIn('carol');
        const refused = await api(server.url, `${CANVAS}/chat-runs`, fromPage(carol, { method: 'POST', body: {} }));
        expect(refused.status).toBe(403);
      });
    });
  });
});

describe('sign-in behind https', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!, { publicUrl: 'https://canvas.example' });
    await server.store.projects.createWorkspace('w');
    await server.store.projects.createProject('p', 'w');
    await server.store.projects.addMember('p', { issuer: IDP, subject: 'alice' }, 'editor');
  });
  afterAll(async () => server?.close());

  it('marks the session cookie Secure when the public URL is https', async () => {
    const secret = await server.store.sessions.createLoginLink(
      { issuer: IDP, subject: 'alice' },
      { expiresInMs: 60_000 },
    );
    // Reached on its loopback port (server.url is the public https URL), posted with the public origin as the page at the public URL would.
    const response = await fetch(`http://127.0.0.1:${server.server.port}/auth/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: 'https://canvas.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: secret }),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.get('set-cookie')).toMatch(/; Secure(;|$)/);
  });
});
