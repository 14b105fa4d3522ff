import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION } from '../../src/contract/index.js';
import { loadServeConfig } from '../../src/config/index.js';
import { startServer } from '../../src/server/server.js';
import { createLogger } from '../../src/shared/logger.js';
import { cli } from '../support/cli.js';
import { connectClient, structured } from '../support/mcp.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/** Every admin command, as a separate process with --json, while a server runs on the same store. */

describe.each(STORE_TARGETS)('admin CLI: $name', (target) => {
  describe.skipIf(!target.available)('against a running server', () => {
    let server: TestServer;
    let storeFlags: string[];
    const admin = (...args: string[]) => cli(['admin', ...args, ...storeFlags, '--json']);

    beforeAll(async () => {
      server = await startTestServer(target);
      const location = server.database.location;
      storeFlags =
        location.kind === 'sqlite'
          ? ['--data', location.file.replace(/\/canvas\.db$/, '')]
          : ['--database-url', location.url];
    });
    afterAll(async () => server?.close());

    it('builds a working project from scratch, each command printing one JSON object', async () => {
      expect(await admin('workspace', 'create', 'studio')).toMatchObject({ code: 0, json: { workspace_id: 'studio' } });
      expect(await admin('project', 'create', 'film', '--workspace', 'studio')).toMatchObject({
        code: 0,
        json: { project_id: 'film' },
      });
      expect(await admin('canvas', 'create', 'film', 'board')).toMatchObject({
        code: 0,
        json: { canvas_id: 'board', locked: false },
      });
      expect(await admin('canvas', 'create', 'film', 'archive', '--locked')).toMatchObject({
        code: 0,
        json: { locked: true },
      });
      expect(
        await admin('member', 'add', 'film', '--issuer', 'https://idp', '--subject', 'dana', '--role', 'editor'),
      ).toMatchObject({
        code: 0,
        json: { role: 'editor' },
      });

      // A backend token: it reads the REST API; agent tokens are for /mcp only.
      const token = await admin(
        'token',
        'create',
        '--name',
        'tooling',
        '--project',
        'film',
        '--role',
        'editor',
        '--kind',
        'backend',
      );
      expect(token.code).toBe(0);
      expect(Object.keys(token.json!).sort()).toEqual(['token', 'token_id']);
      const secret = token.json!.token as string;
      const unbound = await admin('chat-run', 'create', 'film', 'board', '--edit');
      expect(unbound).toMatchObject({ code: 1, json: { error: { code: 'invalid_arguments' } } });
      const chatRun = await admin(
        'chat-run',
        'create',
        'film',
        'board',
        '--edit',
        '--expires-in',
        '3600',
        '--token',
        token.json!.token_id as string,
      );
      expect(Object.keys(chatRun.json!)).toEqual(['agent_run_id']);
      const agentRunId = chatRun.json!.agent_run_id as string;

      // The server sees what the CLI wrote, at once.
      const read = await api(server.url, '/api/v2/projects/film/canvases/board/snapshot', {
        token: secret,
        headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
      });
      expect(read.status).toBe(200);
      const node = {
        id: 'fox',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'a fox', size: '1K', imageUrl: null, aspectRatio: '1:1' },
      };
      const created = await api(server.url, '/api/v2/projects/film/canvases/board/nodes', {
        method: 'POST',
        token: secret,
        headers: { 'x-agent-run-id': agentRunId },
        body: { node, base_revision: 0 },
      });
      expect(created.status).toBe(201);

      const submitted = await admin('node-run', 'submit', 'film', 'board', 'fox', '--idempotency-key', 'cli-1');
      expect(submitted).toMatchObject({
        code: 0,
        json: { run_id: expect.stringMatching(/^run_/), status: 'queued', replayed: false },
      });
      const again = await admin('node-run', 'submit', 'film', 'board', 'fox', '--idempotency-key', 'cli-1');
      expect(again.json).toMatchObject({ run_id: submitted.json!.run_id, replayed: true });
      expect(submitted.json!.estimated_credits).toBe(1);
      // Priced as the server would with the same settings: the image model's price in --run-prices, not the node type's.
      const priced = await cli(
        [
          'admin',
          'node-run',
          'submit',
          'film',
          'board',
          'fox',
          '--idempotency-key',
          'cli-priced',
          ...storeFlags,
          '--json',
        ],
        {
          CANVAS_MCP_IMAGE_PROVIDER: 'fal',
          CANVAS_MCP_RUN_PRICES: '{"fal-ai/flux/schnell": 0.7}',
        },
      );
      expect(priced).toMatchObject({ code: 0, json: { estimated_credits: 0.7, replayed: false } });

      expect(await admin('chat-run', 'end', agentRunId)).toMatchObject({ code: 0, json: { ended: true } });
      const afterEnd = await api(server.url, '/api/v2/projects/film/canvases/board/nodes', {
        method: 'POST',
        token: secret,
        headers: { 'x-agent-run-id': agentRunId },
        body: { node: { ...node, id: 'fox-2' }, base_revision: 1 },
      });
      expect(afterEnd.status).toBe(403);

      expect(await admin('token', 'revoke', token.json!.token_id as string)).toMatchObject({
        code: 0,
        json: { revoked: true },
      });
      const afterRevoke = await api(server.url, '/api/v2/projects/film/canvases/board/snapshot', {
        token: secret,
        headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
      });
      expect(afterRevoke.status).toBe(401);
    }, 120_000);

    it('issues delegated-identity and expiring tokens', async () => {
      await admin('workspace', 'create', 'ws-delegated');
      await admin('project', 'create', 'proj-delegated', '--workspace', 'ws-delegated');
      const delegated = await admin(
        'token',
        'create',
        '--name',
        'delegate',
        '--workspace',
        'ws-delegated',
        '--role',
        'viewer',
        '--actor-issuer',
        'https://idp',
        '--actor-subject',
        'erin',
        '--expires-in',
        '60',
      );
      expect(delegated.code).toBe(0);
      const record = await server.store.tokens.getToken(delegated.json!.token_id as string);
      expect(record).toMatchObject({
        role: 'viewer',
        workspaces: ['ws-delegated'],
        actor: { issuer: 'https://idp', subject: 'erin' },
      });
      expect(record!.expiresAt! - Date.now()).toBeGreaterThan(50_000);
    }, 60_000);

    it('signs a member in with a one-time admin login-link (15 min by default), and admin session revoke ends that session', async () => {
      await server.store.projects.createWorkspace('ws-people');
      await server.store.projects.createProject('people', 'ws-people');
      await server.store.projects.createCanvas('people', 'board', false);
      await server.store.projects.addMember('people', { issuer: 'https://idp', subject: 'pia' }, 'editor');
      const stranger = await admin('login-link', '--issuer', 'https://idp', '--subject', 'nobody');
      expect(stranger).toMatchObject({ code: 1, json: { error: { code: 'forbidden' } } });

      const link = await admin(
        'login-link',
        '--issuer',
        'https://idp',
        '--subject',
        'pia',
        '--project',
        'people',
        '--canvas',
        'board',
        '--public-url',
        server.url,
      );
      expect(link).toMatchObject({
        code: 0,
        json: { url: expect.stringMatching(/\/auth\/login\?token=\S+$/), expires_in: 900 },
      });
      const url = link.json!.url as string;
      expect(url.startsWith(`${server.url}/auth/login?token=`)).toBe(true);
      // Without --public-url, the link is at the URL the running server announced (here a random port, not 8787).
      const announced = await admin('login-link', '--issuer', 'https://idp', '--subject', 'pia');
      expect((announced.json!.url as string).startsWith(`${server.url}/auth/login?token=`)).toBe(true);
      const { response: signIn, cookie } = await signInWithLink(url);
      expect([signIn.status, signIn.headers.get('location')]).toEqual([303, '/p/people/c/board']);
      expect(await api(server.url, '/api/v1/me', { headers: { cookie } })).toMatchObject({
        status: 200,
        body: { person: { subject: 'pia' } },
      });
      expect((await fetch(url, { redirect: 'manual' })).status).toBe(401);

      const sessions = (await admin('session', 'list')).json as {
        sessions: Array<{ session_id: string; subject: string }>;
      };
      const session = sessions.sessions.find((entry) => entry.subject === 'pia');
      expect(session).toBeDefined();
      expect(await admin('session', 'revoke', session!.session_id)).toMatchObject({
        code: 0,
        json: { session_id: session!.session_id, revoked: true },
      });
      expect((await api(server.url, '/api/v1/me', { headers: { cookie } })).status).toBe(401);
    }, 60_000);

    it('reports refusals as a JSON error and exit code 1', async () => {
      const duplicate = await admin('workspace', 'create', 'studio-dup');
      expect(duplicate.code).toBe(0);
      const again = await admin('workspace', 'create', 'studio-dup');
      expect(again).toMatchObject({ code: 1, json: { error: { code: 'already_exists' } } });
      const missing = await admin('project', 'create', 'orphan', '--workspace', 'nowhere');
      expect(missing).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });
      const badCanvas = await admin('canvas', 'create', 'film', 'bad id');
      expect(badCanvas).toMatchObject({ code: 1, json: { error: { code: 'invalid_arguments' } } });
      const badRole = await cli([
        'admin',
        'member',
        'add',
        'film',
        '--issuer',
        'i',
        '--subject',
        's',
        '--role',
        'admin',
        ...storeFlags,
      ]);
      expect(badRole.code).not.toBe(0);
      expect(badRole.stderr).toContain('Allowed choices are viewer, editor, owner');
      const halfActor = await admin('token', 'create', '--name', 'x', '--actor-issuer', 'only-issuer');
      expect(halfActor).toMatchObject({ code: 1, json: { error: { code: 'invalid_arguments' } } });
    }, 60_000);

    it('prints one JSON object for every failure with --json: a missing store, a file it cannot write, a command line that does not parse', async () => {
      const noStore = await cli(['admin', 'workspace', 'create', 'w', '--data', '/nonexistent-canvas-mcp', '--json']);
      expect(noStore).toMatchObject({
        code: 2,
        json: { error: { code: 'usage', message: expect.stringContaining('No store at') } },
      });
      const unwritable = await admin('backup', '--out', '/missing-dir-canvas-mcp/b.tar.gz');
      expect(unwritable).toMatchObject({ code: 1, json: { error: { code: 'io', details: { errno: 'ENOENT' } } } });
      const unknownOption = await admin('workspace', 'create', 'w', '--bogus');
      expect(unknownOption).toMatchObject({
        code: 2,
        json: { error: { code: 'usage', message: "unknown option '--bogus'" } },
      });
      const missingArgument = await admin('workspace', 'create');
      expect(missingArgument).toMatchObject({ code: 2, json: { error: { code: 'usage' } } });
      for (const failure of [noStore, unwritable, unknownOption, missingArgument])
        expect(failure.stdout.trim().split('\n')).toHaveLength(1);
    }, 60_000);

    it('removes a member: their session stops reaching the project at once', async () => {
      await admin('workspace', 'create', 'ws-remove');
      await admin('project', 'create', 'remove-me', '--workspace', 'ws-remove');
      await admin('canvas', 'create', 'remove-me', 'board');
      await admin('member', 'add', 'remove-me', '--issuer', 'https://idp', '--subject', 'rex', '--role', 'editor');
      const link = await admin('login-link', '--issuer', 'https://idp', '--subject', 'rex', '--public-url', server.url);
      const { cookie } = await signInWithLink(link.json!.url as string);
      const snapshot = () =>
        api(server.url, '/api/v2/projects/remove-me/canvases/board/snapshot', {
          headers: { cookie, 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
        });
      expect((await snapshot()).status).toBe(200);
      expect(await admin('member', 'remove', 'remove-me', '--issuer', 'https://idp', '--subject', 'rex')).toMatchObject(
        { code: 0, json: { removed: true } },
      );
      expect((await snapshot()).status).toBe(403);
      expect(await admin('member', 'remove', 'remove-me', '--issuer', 'https://idp', '--subject', 'rex')).toMatchObject(
        { code: 1, json: { error: { code: 'not_found' } } },
      );
    }, 60_000);

    it('sets up a gateway with the documented commands, and it serves the agent (README, docs/operations.md)', async () => {
      await admin('workspace', 'create', 'ws-gw');
      await admin('project', 'create', 'gw-project', '--workspace', 'ws-gw');
      await admin('canvas', 'create', 'gw-project', 'board');
      const unscoped = await admin('token', 'create', '--name', 'gw', '--kind', 'gateway');
      expect(unscoped).toMatchObject({
        code: 1,
        json: { error: { code: 'invalid_arguments', message: expect.stringContaining('--workspace') } },
      });
      const gatewayToken = (await admin('token', 'create', '--name', 'gw', '--kind', 'gateway', '--workspace', 'ws-gw'))
        .json!.token as string;
      const agentToken = (await admin('token', 'create', '--name', 'agent', '--project', 'gw-project')).json!
        .token as string;
      const gateway = await startServer(
        loadServeConfig({ port: 0, workers: 0, backendUrl: server.url, backendToken: gatewayToken }, {}),
        { logger: createLogger('silent') },
      );
      const client = await connectClient(gateway.mcpUrl, { Authorization: `Bearer ${agentToken}` });
      try {
        const result = await client.callTool({
          name: 'get_canvas',
          arguments: { project_id: 'gw-project', canvas_id: 'board' },
        });
        expect(result.isError).toBeFalsy();
        expect(structured<{ layout: { revision: number } }>(result).layout.revision).toBe(0);
      } finally {
        await client.close();
        await gateway.close();
      }
    }, 60_000);
  });
});
