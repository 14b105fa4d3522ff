import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { createHash, randomBytes } from 'node:crypto';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedV2,
} from '@modelcontextprotocol/client';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/index.js';
import { IDP } from '../backend/world.js';
import { Browser, TestOAuthProvider, connectThroughOAuth, type ConsentAnswer } from '../support/oauth-client.js';
import { signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * OAuth 2.1 for MCP: a person connects an MCP client to one canvas from the client itself. The official SDK clients (v1
 * and v2) go from the first 401 through discovery, dynamic registration and the consent page to writes with no custom
 * header; the person ends the connection and the next call is 401. And what must fail does.
 */

const text = (id: string) => ({ id, type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: id } });

interface Stage {
  server: TestServer;
  mcpUrl: string;
  cookies: Record<'ana' | 'vic' | 'olga', string>;
  close(): Promise<void>;
}

async function stage(target: (typeof STORE_TARGETS)[number], overrides: ConfigInput = {}): Promise<Stage> {
  const server = await startTestServer(target, overrides);
  const { projects } = server.store;
  await projects.createWorkspace('w');
  await projects.createProject('p', 'w');
  await projects.createCanvas('p', 'c', false);
  await projects.createCanvas('p', 'other', false);
  const cookies = {} as Stage['cookies'];
  for (const [subject, role] of [
    ['ana', 'editor'],
    ['vic', 'viewer'],
    ['olga', 'owner'],
  ] as const) {
    await projects.addMember('p', { issuer: IDP, subject }, role);
    const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
    cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
  }
  return { server, mcpUrl: server.server.mcpUrl, cookies, close: () => server.close() };
}

/** Connects the v1 SDK client through OAuth as one of the stage's people. */
function connectV1(s: Stage, who: keyof Stage['cookies'], answer: ConsentAnswer) {
  return connectThroughOAuth({ mcpUrl: s.mcpUrl, serverUrl: s.server.url, cookie: s.cookies[who], answer });
}

const structured = <T>(result: unknown) => (result as { structuredContent: T }).structuredContent;

describe.each(STORE_TARGETS)('OAuth connectors: $name', (target) => {
  describe.skipIf(!target.available)('with the official clients', () => {
    let s: Stage;
    beforeAll(async () => {
      s = await stage(target);
    });
    afterAll(async () => s?.close());

    it('answers 401 with where to find the authorization server, and publishes both metadata documents', async () => {
      const response = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate')!;
      expect(challenge).toMatch(
        /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp\/", scope="canvas:read canvas:write runs:write"$/,
      );
      const metadata = (await (await fetch(/resource_metadata="([^"]+)"/.exec(challenge)![1]!)).json()) as {
        resource: string;
        authorization_servers: string[];
      };
      expect(metadata).toMatchObject({ resource: s.mcpUrl, authorization_servers: [`${s.server.url}/oauth`] });
      const as = (await (await fetch(`${s.server.url}/.well-known/oauth-authorization-server/oauth`)).json()) as Record<
        string,
        unknown
      >;
      expect(as).toMatchObject({
        issuer: `${s.server.url}/oauth`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        registration_endpoint: `${s.server.url}/oauth/reg`,
        client_id_metadata_document_supported: true,
      });
      // A token that is not one the server knows: the same challenge, naming the error.
      const bogus = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: 'Bearer not-a-token',
        },
        body: '{}',
      });
      expect(bogus.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", resource_metadata=/);
    });

    it('v1 client: consent with "may edit" on one canvas, a write with no header, seen in the canvas; ending the connection stops the next call', async () => {
      const { client, outcome, provider } = await connectV1(s, 'ana', {
        decision: 'allow',
        canvas: 'p/c',
        access: 'edit',
      });
      expect(outcome.consentPage).toContain('Connect Test connector to a canvas');
      expect(outcome.callback.get('iss')).toBe(`${s.server.url}/oauth`);
      expect(provider.saved?.refresh_token).toBeTruthy();
      // Tokens are kept hashed: no stored record holds the access or refresh token a client presents.
      const records = JSON.stringify(await s.server.store.driver.all('SELECT id, payload FROM oauth_records'));
      expect(records).not.toContain(provider.saved!.access_token);
      expect(records).not.toContain(provider.saved!.refresh_token);
      // The model sees the six; the MCP App's own tools are listed for the app alone (MCP Apps visibility).
      const tools = await client!.listTools();
      const forModel = tools.tools.filter(
        (tool) => !(tool._meta?.ui as { visibility?: string[] } | undefined)?.visibility?.every((who) => who === 'app'),
      );
      expect(forModel.map((tool) => tool.name)).toEqual([
        'list_zone_skills',
        'get_canvas',
        'create_canvas_node',
        'delete_canvas_node',
        'get_canvas_node_run',
        'cancel_canvas_node_run',
      ]);
      expect(tools.tools.filter((tool) => !forModel.includes(tool)).map((tool) => [tool.name, tool._meta])).toEqual([
        ['submit_canvas_node_run', { ui: { visibility: ['app'] } }],
        ['apply_canvas_changes', { ui: { visibility: ['app'] } }],
        ['estimate_canvas_node_run', { ui: { visibility: ['app'] } }],
      ]);
      const read = structured<{ layout: { revision: number } }>(
        await client!.callTool({ name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'c' } }),
      );
      const write = await client!.callTool({
        name: 'create_canvas_node',
        arguments: {
          project_id: 'p',
          canvas_id: 'c',
          base_revision: read.layout.revision,
          node: text('from-connector'),
        },
      });
      expect(write.isError, JSON.stringify(write.content)).toBeFalsy();
      const history = await s.server.store.history.history('p', 'c', 1e9, 1);
      expect(history[0]).toMatchObject({
        changes: [{ id: 'from-connector', change: 'create' }],
        author: { kind: 'agent', token_name: 'Test connector (connector)' },
      });

      // The person sees the connection on the canvas, and ends it.
      const listed = await fetch(`${s.server.url}/api/v1/projects/p/canvases/c/connections`, {
        headers: { cookie: s.cookies.ana },
      });
      const { connections } = (await listed.json()) as {
        connections: Array<{ grant_id: string; client_name: string; scopes: string[]; last_used_at: string | null }>;
      };
      expect(connections).toHaveLength(1);
      expect(connections[0]).toMatchObject({ client_name: 'Test connector', scopes: ['canvas:read', 'canvas:write'] });
      expect(connections[0]!.last_used_at).not.toBeNull();
      const ended = await fetch(`${s.server.url}/api/v1/connections/${connections[0]!.grant_id}`, {
        method: 'DELETE',
        headers: { cookie: s.cookies.ana, origin: s.server.url, 'x-requested-by': 'canvas-mcp' },
      });
      expect(ended.status).toBe(200);
      const after = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${provider.saved!.access_token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
      // The refresh token died with it.
      const refreshed = await fetch(`${s.server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: provider.saved!.refresh_token!,
          client_id: provider.client!.client_id,
        }).toString(),
      });
      expect(refreshed.status).toBe(400);
      await client!.close();
    });

    it('an owner gives a connection the layout tool set: the model lists and calls tidy_canvas; a viewer cannot give it', async () => {
      const { client } = await connectV1(s, 'ana', { decision: 'allow', canvas: 'p/c', access: 'edit' });
      const grant = (await s.server.store.grants.onCanvas('p', 'c')).find((each) => each.endedAt === null)!;
      const patch = (cookie: string, body: unknown) =>
        fetch(`${s.server.url}/api/v1/connections/${grant.grantId}`, {
          method: 'PATCH',
          headers: {
            cookie,
            origin: s.server.url,
            'x-requested-by': 'canvas-mcp',
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        });
      expect((await patch(s.cookies.vic, { tool_sets: ['layout'] })).status).toBe(403);
      const changed = await patch(s.cookies.olga, { tool_sets: ['layout'] });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toMatchObject({ tool_sets: ['layout'] });
      const listed = (await client!.listTools()).tools;
      const tidy = listed.find((tool) => tool.name === 'tidy_canvas');
      expect(tidy?._meta).toBeUndefined();
      const before = await s.server.store.layout.readCanvas('p', 'c');
      await s.server.store.writes.applyBatch(
        {
          projectId: 'p',
          canvasId: 'c',
          baseRevision: before!.revision,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        [
          { op: 'create_node', node: CanvasNode.parse(text('tidy-a')) },
          { op: 'create_node', node: CanvasNode.parse(text('tidy-b')) },
        ],
      );
      const read = structured<{ layout: { revision: number } }>(
        await client!.callTool({ name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'c' } }),
      );
      const tidied = await client!.callTool({
        name: 'tidy_canvas',
        arguments: { project_id: 'p', canvas_id: 'c', base_revision: read.layout.revision, client_save_id: null },
      });
      expect(tidied.isError, JSON.stringify(tidied.content)).toBeFalsy();
      const exporting = await client!
        .callTool({ name: 'export_board', arguments: { project_id: 'p', canvas_id: 'c', export: {} } })
        .catch((error: Error) => error);
      expect(String(exporting)).toMatch(/Unknown tool: export_board/);

      // The review set on the connection: the model replies in a thread a person started.
      expect((await patch(s.cookies.olga, { tool_sets: ['review'] })).status).toBe(200);
      const started = await fetch(`${s.server.url}/api/v2/projects/p/canvases/c/threads`, {
        method: 'POST',
        headers: {
          cookie: s.cookies.olga,
          origin: s.server.url,
          'x-requested-by': 'canvas-mcp',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ node_id: null, body: 'Which shot opens?' }),
      });
      const { thread_id: threadId } = (await started.json()) as { thread_id: string };
      const replied = await client!.callTool({
        name: 'reply_to_comment',
        arguments: { project_id: 'p', canvas_id: 'c', thread_id: threadId, body: 'The wide of the bay.' },
      });
      expect(replied.isError, JSON.stringify(replied.content)).toBeFalsy();
      expect(structured<{ comments: Array<{ author: { kind: string } }> }>(replied).comments[1]!.author.kind).toBe(
        'agent',
      );
      await client!.close();
    });

    it('a host that signs in again replaces its earlier connection: one listed, the earlier token refused', async () => {
      const answer = { decision: 'allow', canvas: 'p/other', access: 'read' } as const;
      const first = await connectV1(s, 'olga', answer);
      const second = await connectV1(s, 'olga', answer);
      const listed = await fetch(`${s.server.url}/api/v1/projects/p/canvases/other/connections`, {
        headers: { cookie: s.cookies.olga },
      });
      const { connections } = (await listed.json()) as { connections: Array<{ client_name: string }> };
      expect(connections.map((connection) => connection.client_name)).toEqual(['Test connector']);
      const stale = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${first.provider.saved!.access_token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(stale.status).toBe(401);
      expect((await second.client!.listTools()).tools.length).toBeGreaterThan(0);
      await first.client?.close();
      await second.client?.close();
    });

    it('v2 client, 2026-07-28: the whole flow to a write, and a read-only grant is refused writes with a scope challenge', async () => {
      const provider = new TestOAuthProvider('http://127.0.0.1:53683/callback', 'Reader app');
      const first = new ClientV2(
        { name: 'oauth-v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      const transport = new TransportV2(new URL(s.mcpUrl), { authProvider: provider as never });
      await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedV2);
      const outcome = await new Browser(s.cookies.ana).authorize(
        provider.authorizationUrl!,
        provider.redirectUrl,
        s.server.url,
        { decision: 'allow', canvas: 'p/c', access: 'read' },
      );
      await transport.finishAuth(outcome.callback);
      const client = new ClientV2(
        { name: 'oauth-v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new TransportV2(new URL(s.mcpUrl), { authProvider: provider as never }));
      const read = (await client.callTool({ name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'c' } })) as {
        structuredContent: { layout: { revision: number } };
      };
      expect(read.structuredContent.layout.revision).toBeGreaterThanOrEqual(0);
      // Beyond the grant: 403 with the scope it would need.
      const denied = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${provider.saved!.access_token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: {
            name: 'create_canvas_node',
            arguments: { project_id: 'p', canvas_id: 'c', base_revision: 0, node: text('nope') },
          },
        }),
      });
      expect(denied.status).toBe(403);
      expect(denied.headers.get('www-authenticate')).toMatch(
        /^Bearer error="insufficient_scope", resource_metadata="[^"]+", scope="canvas:write"$/,
      );
      // Another canvas of the same project is not part of the grant.
      const elsewhere = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${provider.saved!.access_token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 8,
          method: 'tools/call',
          params: { name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'other' } },
        }),
      });
      // A tool error the model can read and explain, not a transport refusal the SDK would throw.
      expect(elsewhere.status).toBe(200);
      const outside = (await elsewhere.json()) as {
        result: { isError: boolean; structuredContent: { error: { code: string; message: string } } };
      };
      expect(outside.result.isError).toBe(true);
      expect(outside.result.structuredContent.error).toMatchObject({
        code: 'forbidden',
        message: 'This connection is for canvas c of project p only: canvas other of project p is outside it.',
      });
      await client.close();
    });

    it('a connection allowed to start runs spends at most its limit: a retried submission spends nothing, the run past it is refused with budget_exceeded', async () => {
      // Runs are started with a tool beyond the published six: a server that offers it.
      const runs = await stage(target, { enableHiddenTools: true });
      const { client } = await connectV1(runs, 'olga', {
        decision: 'allow',
        canvas: 'p/other',
        access: 'runs',
        spend_limit: '1',
      });
      const revision = structured<{ layout: { revision: number } }>(
        await client!.callTool({ name: 'get_canvas', arguments: { project_id: 'p', canvas_id: 'other' } }),
      ).layout.revision;
      const frame = {
        id: 'paid',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'a gull', size: '1K', imageUrl: null, aspectRatio: '1:1', count: 1 },
      };
      expect(
        (
          await client!.callTool({
            name: 'create_canvas_node',
            arguments: { project_id: 'p', canvas_id: 'other', base_revision: revision, node: frame },
          })
        ).isError,
      ).toBeFalsy();
      // The same submission sent twice at once (a client retrying before the first answer), then once more: one run,
      // one charge against the limit.
      const submit = () =>
        client!.callTool({
          name: 'submit_canvas_node_run',
          arguments: { project_id: 'p', canvas_id: 'other', node_id: 'paid', idempotency_key: 'first' },
        });
      const [first, racing] = await Promise.all([submit(), submit()]);
      expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
      expect(racing.isError, JSON.stringify(racing.content)).toBeFalsy();
      const retried = await submit();
      expect(
        new Set([first, racing, retried].map((result) => structured<{ run_id: string }>(result).run_id)).size,
      ).toBe(1);
      await expect(
        client!.callTool({
          name: 'submit_canvas_node_run',
          arguments: { project_id: 'p', canvas_id: 'other', node_id: 'paid', idempotency_key: 'second' },
        }),
      ).rejects.toThrow(/may spend 1 in all and has spent 1/);
      await client!.close();
      await runs.close();
    });

    it("a viewer's consent cannot give edit rights: the page says why and no grant is made", async () => {
      const provider = new TestOAuthProvider('http://127.0.0.1:53684/callback');
      const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
      await expect(new Client({ name: 'v', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      const outcome = await new Browser(s.cookies.vic).authorize(
        provider.authorizationUrl!,
        provider.redirectUrl,
        s.server.url,
        { decision: 'allow', canvas: 'p/c', access: 'edit' },
      );
      expect(outcome.answerStatus).toBe(403);
      expect(outcome.answerPage).toContain('You are a viewer of project p');
      expect(outcome.callback.get('code')).toBeNull();
    });

    it('deny sends access_denied back to the client', async () => {
      const provider = new TestOAuthProvider('http://127.0.0.1:53685/callback');
      await expect(
        new Client({ name: 'd', version: '1' }).connect(
          new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider }),
        ),
      ).rejects.toBeInstanceOf(UnauthorizedError);
      const outcome = await new Browser(s.cookies.ana).authorize(
        provider.authorizationUrl!,
        provider.redirectUrl,
        s.server.url,
        { decision: 'deny' },
      );
      expect(outcome.callback.get('error')).toBe('access_denied');
    });
  });
});

describe('OAuth: what must fail', () => {
  let s: Stage;
  let clientId: string;
  const redirectUri = 'http://127.0.0.1:53690/callback';
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  beforeAll(async () => {
    s = await stage(STORE_TARGETS[0]!);
    const registered = await fetch(`${s.server.url}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Raw client',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: 'canvas:read canvas:write',
      }),
    });
    expect(registered.status).toBe(201);
    clientId = ((await registered.json()) as { client_id: string }).client_id;
  });
  afterAll(async () => s?.close());

  const authorizeUrl = (extra: Record<string, string> = {}) =>
    new URL(
      `${s.server.url}/oauth/auth?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'canvas:read canvas:write',
        state: 'st',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: s.mcpUrl,
        ...extra,
      })}`,
    );
  const token = (params: Record<string, string>) =>
    fetch(`${s.server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, ...params }).toString(),
    });
  const code = async () =>
    (
      await new Browser(s.cookies.ana).authorize(authorizeUrl(), redirectUri, s.server.url, {
        decision: 'allow',
        canvas: 'p/c',
        access: 'edit',
      })
    ).callback.get('code')!;

  it('a wrong PKCE verifier is refused, and the code still works with the right one, once', async () => {
    const issued = await code();
    expect(
      (
        await token({
          grant_type: 'authorization_code',
          code: issued,
          redirect_uri: redirectUri,
          code_verifier: 'x'.repeat(43),
        })
      ).status,
    ).toBe(400);
    const good = await token({
      grant_type: 'authorization_code',
      code: issued,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(good.status).toBe(200);
    const reused = await token({
      grant_type: 'authorization_code',
      code: issued,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('a redirect address other than the registered one is refused before any consent', async () => {
    const outcome = await new Browser(s.cookies.ana).follow(
      authorizeUrl({ redirect_uri: 'http://127.0.0.1:53690/elsewhere' }).href,
      'http://127.0.0.1:53690/elsewhere',
    );
    expect('page' in outcome && outcome.page.status).toBe(400);
  });

  it('a token for another resource is refused', async () => {
    const outcome = await new Browser(s.cookies.ana).follow(
      authorizeUrl({ resource: 'https://elsewhere.example/mcp/' }).href,
      redirectUri,
    );
    expect('callback' in outcome && outcome.callback.get('error')).toBe('invalid_target');
  });

  it('an expired access token is refused with invalid_token', async () => {
    const issued = await code();
    const tokens = (await (
      await token({
        grant_type: 'authorization_code',
        code: issued,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      })
    ).json()) as { access_token: string };
    const call = () =>
      fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${tokens.access_token}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await call()).status).toBe(200);
    // An hour later, as far as the store is concerned.
    await s.server.store.driver.run("UPDATE oauth_records SET expires_at = ? WHERE model = 'AccessToken'", [
      Date.now() - 1000,
    ]);
    const expired = await call();
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('a refresh token used twice ends the grant: its access token stops too', async () => {
    const issued = await code();
    const first = (await (
      await token({
        grant_type: 'authorization_code',
        code: issued,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      })
    ).json()) as { access_token: string; refresh_token: string };
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(rotated.status).toBe(200);
    const { access_token: current } = (await rotated.json()) as { access_token: string };
    // Past the grace window for a client refreshing twice at once (10 s, as far as the store is concerned: the kept
    // answer of the first use has expired), a replayed refresh token is theft.
    await s.server.store.driver.run("UPDATE oauth_records SET expires_at = ? WHERE model = 'RefreshReply'", [
      Date.now() - 1000,
    ]);
    const replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(replay.status).toBe(400);
    const call = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${current}`,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(call.status).toBe(401);
  });
});
