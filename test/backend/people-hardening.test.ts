import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION } from '../../src/contract/index.js';
import { connectClient, structured, toolError } from '../support/mcp.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { openEvents } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';
import { IDP, seedWorld, type World } from './world.js';

/**
 * The holes a security review found in the people's side, each proven closed over real HTTP on SQLite and PostgreSQL:
 * access people grant never outlives their own, people's routes never reach an administrator's tokens, a sign-in link
 * is spent only by its own page, people's writes have a budget, and an idle session's feed ends.
 */

const CANVAS = '/api/v2/projects/p1/canvases/c1';
const SNAPSHOT = { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION };
const DAY_MS = 86_400_000;

function errorOf(body: unknown) {
  return (body as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

const note = (id: string, content = id) => ({
  id,
  type: 'textAnnotationNode',
  position: { x: 0, y: 0 },
  data: { content },
});
/** A node of about 400 KB (strings are at most 100,000 characters each). */
const bigNode = (id: string) => ({
  id,
  type: 'beatContextNode',
  position: { x: 0, y: 0 },
  data: { mainline_context: Array.from({ length: 4 }, () => 'x'.repeat(100_000)) },
});

describe.each(STORE_TARGETS)('the people side, hardened: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let world: World;
    /** Moves the server's clock (sessions idle, links and tokens expire) without waiting. */
    let offsetMs = 0;

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 }, { clock: () => Date.now() + offsetMs });
      world = await seedWorld(server.store, { kind: 'backend' });
    });
    afterAll(async () => server?.close());

    async function member(subject: string, role: 'viewer' | 'editor' | 'owner') {
      const person = { issuer: IDP, subject };
      await server.store.projects.addMember('p1', person, role);
      return person;
    }

    async function signIn(subject: string): Promise<string> {
      const secret = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject },
        { expiresInMs: 60_000, projectId: 'p1', canvasId: 'c1' },
      );
      const { response, cookie } = await signInWithLink(`${server.url}/auth/login?token=${secret}`);
      expect(response.status).toBe(303);
      return cookie;
    }

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

    describe('defect 1: what a person granted never exceeds what they hold now', () => {
      it('caps an agent token an owner issued by their current role: downgraded to viewer it only reads, removed it does nothing', async () => {
        const dora = await member('dora', 'owner');
        const cookie = await signIn('dora');
        const issued = await api(
          server.url,
          '/api/v1/tokens',
          fromPage(cookie, { method: 'POST', body: { name: 'dora agent', project_id: 'p1' } }),
        );
        const { token, token_id } = issued.body as { token: string; token_id: string };
        const opened = await api(
          server.url,
          `${CANVAS}/chat-runs`,
          fromPage(cookie, { method: 'POST', body: { edit: true, token_id } }),
        );
        const chatRun = (opened.body as { agent_run_id: string }).agent_run_id;
        const agent = await connectClient(server.server.mcpUrl, {
          Authorization: `Bearer ${token}`,
          'X-Agent-Run-Id': chatRun,
        });
        try {
          const create = async (id: string) =>
            agent.callTool({
              name: 'create_canvas_node',
              arguments: { project_id: 'p1', canvas_id: 'c1', base_revision: await revision(), node: note(id) },
            });
          const read = () => agent.callTool({ name: 'get_canvas', arguments: { project_id: 'p1', canvas_id: 'c1' } });
          expect((await create('dora-1')).isError).toBeFalsy();

          await server.store.projects.addMember('p1', dora, 'viewer');
          expect(toolError(await create('dora-2'))).toMatchObject({ code: 'forbidden' });
          expect(structured(await read())).toHaveProperty('layout');

          await server.store.projects.addMember('p1', dora, 'owner');
          expect((await create('dora-3')).isError).toBeFalsy();

          await server.store.projects.removeMember('p1', dora);
          const afterRemoval = toolError(await read());
          expect(afterRemoval.code).toBe('forbidden');
          expect(afterRemoval.message).toContain('no longer a member');
        } finally {
          await agent.close();
        }
      });

      it("ends the edit authorization of a chat run when the person who opened it loses edit rights, even for an administrator's token", async () => {
        const erin = await member('erin', 'owner');
        const cookie = await signIn('erin');
        // An agent token an administrator issued (editor): it keeps its own rights, the chat run does not.
        const opened = await api(
          server.url,
          `${CANVAS}/chat-runs`,
          fromPage(cookie, { method: 'POST', body: { edit: true, token_id: world.tokens.agentKind.id } }),
        );
        expect(opened.status).toBe(201);
        const chatRun = (opened.body as { agent_run_id: string }).agent_run_id;
        const agent = await connectClient(server.server.mcpUrl, {
          Authorization: `Bearer ${world.tokens.agentKind.secret}`,
          'X-Agent-Run-Id': chatRun,
        });
        try {
          const create = async (id: string) =>
            agent.callTool({
              name: 'create_canvas_node',
              arguments: { project_id: 'p1', canvas_id: 'c1', base_revision: await revision(), node: note(id) },
            });
          expect((await create('erin-1')).isError).toBeFalsy();
          await server.store.projects.addMember('p1', erin, 'viewer');
          const refused = toolError(await create('erin-2'));
          expect(refused.code).toBe('edit_not_authorized');
          expect(refused.message).toContain('erin, who opened the chat run');
          await server.store.projects.removeMember('p1', erin);
          expect(toolError(await create('erin-3')).code).toBe('edit_not_authorized');
        } finally {
          await agent.close();
        }
      });

      it('gives agent tokens 30 days and chat runs 7 days when the person names no lifetime', async () => {
        await member('fay', 'owner');
        const cookie = await signIn('fay');
        const started = Date.now() + offsetMs;
        const issued = await api(
          server.url,
          '/api/v1/tokens',
          fromPage(cookie, { method: 'POST', body: { name: 'fay agent', project_id: 'p1' } }),
        );
        const tokenExpiry = Date.parse((issued.body as { expires_at: string }).expires_at);
        expect(tokenExpiry - started).toBeGreaterThanOrEqual(30 * DAY_MS - 5000);
        expect(tokenExpiry - started).toBeLessThanOrEqual(30 * DAY_MS + 5000);
        const opened = await api(server.url, `${CANVAS}/chat-runs`, fromPage(cookie, { method: 'POST', body: {} }));
        const runExpiry = Date.parse((opened.body as { expires_at: string }).expires_at);
        expect(runExpiry - started).toBeGreaterThanOrEqual(7 * DAY_MS - 5000);
        expect(runExpiry - started).toBeLessThanOrEqual(7 * DAY_MS + 5000);
      });
    });

    describe("defect 4: people's routes reach only the agent tokens people issued", () => {
      it('lists no administrator token and refuses to revoke one; the gateway still introspects', async () => {
        await member('gus', 'owner');
        const cookie = await signIn('gus');
        const mine = await api(
          server.url,
          '/api/v1/tokens',
          fromPage(cookie, { method: 'POST', body: { name: 'gus agent', project_id: 'p1' } }),
        );
        const listed = await api(server.url, '/api/v1/tokens?project_id=p1', { headers: { cookie } });
        const ids = (listed.body as { tokens: Array<{ token_id: string; kind: string; issued_by: unknown }> }).tokens;
        expect(ids.map((token) => token.token_id)).toContain((mine.body as { token_id: string }).token_id);
        expect(ids.every((token) => token.kind === 'agent' && token.issued_by !== null)).toBe(true);
        for (const adminToken of [world.tokens.editor, world.tokens.backendKind, world.tokens.agentKind]) {
          expect(ids.map((token) => token.token_id)).not.toContain(adminToken.id);
          const revoked = await api(
            server.url,
            `/api/v1/tokens/${adminToken.id}`,
            fromPage(cookie, { method: 'DELETE' }),
          );
          expect([revoked.status, errorOf(revoked.body).code]).toEqual([403, 'forbidden']);
        }
        expect((await server.store.tokens.getToken(world.tokens.gateway.id))!.revokedAt).toBeNull();
        expect((await server.store.tokens.getToken(world.tokens.editor.id))!.revokedAt).toBeNull();
      });
    });

    describe('defect 5: a sign-in link is spent only by its own page', () => {
      async function linkUrl(subject: string, expiresInMs = 60_000): Promise<string> {
        const secret = await server.store.sessions.createLoginLink(
          { issuer: IDP, subject },
          { expiresInMs, projectId: 'p1', canvasId: 'c1' },
        );
        return `${server.url}/auth/login?token=${secret}`;
      }

      it("spends nothing on GET (an <img>, a preview bot, a cross-site navigation), and signs in only on its own page's POST", async () => {
        await member('hal', 'editor');
        const url = await linkUrl('hal');
        for (let look = 0; look < 3; look += 1) {
          const page = await fetch(url, { redirect: 'manual', headers: { 'sec-fetch-dest': 'image' } });
          expect(page.status).toBe(200);
          expect(page.headers.get('set-cookie')).toBeNull();
          const text = await page.text();
          expect(text).toContain('Sign in as hal');
          expect(text).toContain('method="post"');
        }
        const token = new URL(url).searchParams.get('token')!;
        const form = (origin?: string) =>
          fetch(`${server.url}/auth/login`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
            body: new URLSearchParams({ token }),
          });
        for (const refused of [await form('https://evil.example'), await form(), await form('null')]) {
          expect(refused.status).toBe(403);
          expect(refused.headers.get('set-cookie')).toBeNull();
        }
        const { response, cookie } = await signInWithLink(url);
        expect(response.status).toBe(303);
        expect(await api(server.url, '/api/v1/me', { headers: { cookie } })).toMatchObject({
          status: 200,
          body: { person: { subject: 'hal' } },
        });
      });

      it("asks before replacing a live session with another person's, and ends the replaced one", async () => {
        await member('ida', 'editor');
        await member('jon', 'editor');
        const idaCookie = await signIn('ida');
        const url = await linkUrl('jon');
        const page = await fetch(url, { headers: { cookie: idaCookie } });
        const text = await page.text();
        expect(text).toContain('This browser is signed in as');
        expect(text).toContain('ida');
        expect(text).toContain('name="replace"');

        const token = new URL(url).searchParams.get('token')!;
        const unconfirmed = await fetch(`${server.url}/auth/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie: idaCookie },
          body: new URLSearchParams({ token }),
        });
        expect(unconfirmed.status).toBe(409);
        expect(unconfirmed.headers.get('set-cookie')).toBeNull();
        expect((await api(server.url, '/api/v1/me', { headers: { cookie: idaCookie } })).status).toBe(200);

        const { response, cookie } = await signInWithLink(url, { cookie: idaCookie, replace: true });
        expect(response.status).toBe(303);
        expect(await api(server.url, '/api/v1/me', { headers: { cookie } })).toMatchObject({
          body: { person: { subject: 'jon' } },
        });
        expect((await api(server.url, '/api/v1/me', { headers: { cookie: idaCookie } })).status).toBe(401);
      });

      it('refuses to make a link that lasts more than 7 days', async () => {
        await member('kim', 'editor');
        await expect(
          server.store.sessions.createLoginLink({ issuer: IDP, subject: 'kim' }, { expiresInMs: 8 * DAY_MS }),
        ).rejects.toMatchObject({ code: 'invalid_arguments' });
        await expect(
          server.store.sessions.createLoginLink({ issuer: IDP, subject: 'kim' }, { expiresInMs: 7 * DAY_MS }),
        ).resolves.toMatch(/^login_/);
      });
    });

    describe('defect 7: a small request cannot make the change log grow by a large amount', () => {
      it('refuses a revert that would log more than 4 MiB of bodies, naming the limit, and writes nothing', async () => {
        const cookie = await signIn('alice');
        const before = await revision();
        for (let index = 0; index < 11; index += 1) {
          const created = await api(
            server.url,
            `${CANVAS}/nodes`,
            fromPage(cookie, {
              method: 'POST',
              body: { node: bigNode(`big-${index}`), base_revision: before + index },
            }),
          );
          expect(created.status).toBe(201);
        }
        const full = before + 11;
        const deleted = await api(
          server.url,
          `${CANVAS}/changes`,
          fromPage(cookie, {
            method: 'POST',
            body: {
              base_revision: full,
              operations: Array.from({ length: 11 }, (_, index) => ({ op: 'delete_node', node_id: `big-${index}` })),
            },
          }),
        );
        expect(deleted.status).toBe(201);
        const reverted = await api(
          server.url,
          `${CANVAS}/revert`,
          fromPage(cookie, { method: 'POST', body: { base_revision: full + 1, to_revision: full } }),
        );
        expect([reverted.status, errorOf(reverted.body).code]).toEqual([422, 'limit_exceeded']);
        expect(errorOf(reverted.body).details).toMatchObject({ max_change_log_bytes: 4 * 1024 * 1024 });
        expect(await revision()).toBe(full + 1);
      }, 60_000);
    });

    describe('defect 8: an open feed does not outlive its idle session', () => {
      it('ends the feed with access_revoked once the session that opened it has been idle too long', async () => {
        const cookie = await signIn('alice');
        const reader = await openEvents(`${server.url}${CANVAS}/events`, { cookie });
        expect(reader.status).toBe(200);
        try {
          offsetMs = 13 * 3_600_000;
          const reset = await reader.waitFor((received) => received.event === 'reset', 8_000);
          expect(reset.data).toMatchObject({ reason: 'access_revoked' });
          await reader.closed;
          expect((await api(server.url, '/api/v1/me', { headers: { cookie } })).status).toBe(401);
        } finally {
          offsetMs = 0;
          reader.close();
        }
      }, 20_000);
    });
  });
});

describe("defect 7: a person's REST writes have a budget like an agent's at /mcp", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!, { rateLimitPerMinute: 5 });
    await server.store.projects.createWorkspace('w');
    await server.store.projects.createProject('p', 'w');
    await server.store.projects.createCanvas('p', 'c', false);
    await server.store.projects.addMember('p', { issuer: IDP, subject: 'lea' }, 'editor');
  });
  afterAll(async () => server?.close());

  it('answers 429 with Retry-After past the per-minute writes of one person, whatever session they use, and keeps reads open', async () => {
    const signIn = async () => {
      const secret = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'lea' },
        { expiresInMs: 60_000 },
      );
      return (await signInWithLink(`${server.url}/auth/login?token=${secret}`)).cookie;
    };
    const sessions = [await signIn(), await signIn()];
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let index = 0; index < 7; index += 1) {
      const cookie = sessions[index % 2]!;
      last = await fetch(`${server.url}/api/v2/projects/p/canvases/c/nodes`, {
        method: 'POST',
        headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', 'content-type': 'application/json' },
        body: JSON.stringify({ node: note(`n${index}`), base_revision: index }),
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await last!.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    const read = await api(server.url, '/api/v2/projects/p/canvases/c/snapshot', {
      headers: { cookie: sessions[0]!, ...SNAPSHOT },
    });
    expect(read.status).toBe(200);
  });
});
