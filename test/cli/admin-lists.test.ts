import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/shared/ids.js';
import { CLI_ENTRY, cli } from '../support/cli.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { POSTGRES_URL, STORE_TARGETS, createPostgresDatabase, postgresAvailable } from '../support/stores.js';

/** `--version`, the list commands, and admin commands that never create a store by mistake. */

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-lists-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('canvas-mcp --version', () => {
  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const result = await cli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  }, 30_000);
});

describe('output into a reader that stops early', () => {
  it('ends quietly with exit 0 when the pipe closes (canvas-mcp openapi | head)', async () => {
    const child = spawn(process.execPath, [CLI_ENTRY, 'openapi'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like head: read the first chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 30_000);
});

describe('an admin command on a location without a store', () => {
  it('refuses with exit 2, the path and the --data hint, and creates nothing', async () => {
    const data = join(tempDir(), 'data');
    const result = await cli(['admin', 'project', 'list', '--data', data]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(data, 'canvas.db'));
    expect(result.stderr).toContain('--data');
    expect(existsSync(data)).toBe(false);
  }, 30_000);

  it('creates a new store there with --create, and says which store it opened on stderr', async () => {
    const data = join(tempDir(), 'data');
    const created = await cli(['admin', 'workspace', 'create', 'w', '--data', data, '--create', '--json']);
    expect(created).toMatchObject({ code: 0, json: { workspace_id: 'w' } });
    expect(created.stderr).toBe(`store: sqlite ${join(data, 'canvas.db')}\n`);
    const listed = await cli(['admin', 'project', 'list', '--data', data, '--json']);
    expect(listed).toMatchObject({ code: 0, json: { projects: [] } });
  }, 30_000);

  it.skipIf(!postgresAvailable)(
    'refuses a PostgreSQL database without the schema, naming it without its password',
    async () => {
      const database = await createPostgresDatabase();
      try {
        const url = new URL(database.location.kind === 'postgres' ? database.location.url : POSTGRES_URL);
        url.password = 'not-shown';
        const result = await cli(['admin', 'token', 'list', '--database-url', url.toString()]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain('No store in postgres://');
        expect(result.stderr).toContain('--data');
        expect(result.stderr).not.toContain('not-shown');
      } finally {
        await database.cleanup();
      }
    },
    30_000,
  );
});

describe.each(STORE_TARGETS)('admin list commands: $name', (target) => {
  describe.skipIf(!target.available)('against a running server', () => {
    let server: TestServer;
    let storeFlags: string[];
    let tokenSecret: string;
    let tokenId: string;
    let sessionSecret: string;
    let chatRunId: string;
    const admin = (...args: string[]) => cli(['admin', ...args, ...storeFlags]);

    beforeAll(async () => {
      server = await startTestServer(target);
      const location = server.database.location;
      storeFlags =
        location.kind === 'sqlite'
          ? ['--data', location.file.replace(/\/canvas\.db$/, '')]
          : ['--database-url', location.url];
      const { store } = server;
      await store.projects.createWorkspace('studio');
      await store.projects.createProject('film', 'studio');
      await store.projects.setProjectBudget('film', 100);
      await store.projects.createCanvas('film', 'board', false);
      await store.projects.createCanvas('film', 'archive', true);
      await store.projects.addMember('film', { issuer: 'https://idp', subject: 'dana' }, 'owner');
      ({ tokenId, secret: tokenSecret } = await store.tokens.createToken({
        name: 'agent-one',
        kind: 'agent',
        role: 'editor',
        projects: ['film'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      }));
      const revoked = await store.tokens.createToken({
        name: 'old',
        kind: 'backend',
        role: 'viewer',
        projects: [],
        workspaces: ['studio'],
        actor: null,
        expiresAt: null,
      });
      await store.tokens.revokeToken(revoked.tokenId);
      chatRunId = await store.chatRuns.createChatRun({
        projectId: 'film',
        canvasId: 'board',
        actor: null,
        tokenId,
        canEdit: true,
        expiresAt: null,
      });
      const ended = await store.chatRuns.createChatRun({
        projectId: 'film',
        canvasId: 'board',
        actor: null,
        tokenId,
        canEdit: false,
        expiresAt: null,
      });
      await store.chatRuns.endChatRun(ended);
      const link = await store.sessions.createLoginLink(
        { issuer: 'https://idp', subject: 'dana' },
        { expiresInMs: 60_000, projectId: null, canvasId: null },
      );
      sessionSecret = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie.split('=')[1]!;
    });
    afterAll(async () => server?.close());

    it('lists projects and canvases as JSON and as a table', async () => {
      const projects = await admin('project', 'list', '--json');
      expect(projects.json).toEqual({
        projects: [{ project_id: 'film', workspace_id: 'studio', budget_credits: 100, spent_credits: 0 }],
      });
      const canvases = await admin('canvas', 'list', 'film', '--json');
      expect(canvases.json).toEqual({
        canvases: [
          { project_id: 'film', canvas_id: 'archive', locked: true, revision: 0 },
          { project_id: 'film', canvas_id: 'board', locked: false, revision: 0 },
        ],
      });
      const table = await admin('canvas', 'list', 'film');
      expect(table.stdout.split('\n')[0]).toMatch(/^CANVAS\s+REVISION\s+LOCKED$/);
      expect(table.stdout).toMatch(/archive\s+0\s+yes/);
    }, 60_000);

    it('lists members, and refuses an unknown project with not_found', async () => {
      const members = await admin('member', 'list', 'film', '--json');
      expect(members.json).toMatchObject({ members: [{ issuer: 'https://idp', subject: 'dana', role: 'owner' }] });
      const missing = await admin('member', 'list', 'nowhere', '--json');
      expect(missing).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });
    }, 60_000);

    it('lists tokens with their status and scopes, never a secret or its hash', async () => {
      const listed = await admin('token', 'list', '--json');
      const tokens = (listed.json as { tokens: Array<Record<string, unknown>> }).tokens;
      expect(tokens.map((token) => [token.name, token.status])).toEqual(
        expect.arrayContaining([
          ['agent-one', 'active'],
          ['old', 'revoked'],
        ]),
      );
      expect(tokens.find((token) => token.name === 'old')).toMatchObject({ kind: 'backend', workspaces: ['studio'] });
      for (const output of [listed.stdout, (await admin('token', 'list')).stdout]) {
        expect(output).toContain(tokenId);
        expect(output).not.toContain(tokenSecret);
        expect(output).not.toContain(sha256Hex(tokenSecret));
      }
      const scoped = await admin('token', 'list', '--project', 'film', '--json');
      expect((scoped.json as { tokens: Array<{ name: string }> }).tokens.map((token) => token.name)).toEqual([
        'agent-one',
      ]);
    }, 60_000);

    it('lists active chat runs, and every one with --all', async () => {
      const active = await admin('chat-run', 'list', 'film', 'board', '--json');
      expect(active.json).toMatchObject({
        chat_runs: [{ agent_run_id: chatRunId, can_edit: true, token_id: tokenId, status: 'active' }],
      });
      const all = await admin('chat-run', 'list', 'film', 'board', '--all', '--json');
      expect(
        (all.json as { chat_runs: Array<{ status: string }> }).chat_runs.map((chatRun) => chatRun.status).sort(),
      ).toEqual(['active', 'ended']);
    }, 60_000);

    it('lists node runs newest first, bounded by --limit', async () => {
      const writer = await server.store.tokens.createToken({
        name: 'writer',
        kind: 'backend',
        role: 'editor',
        projects: ['film'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      const writerRun = await server.store.chatRuns.createChatRun({
        projectId: 'film',
        canvasId: 'board',
        actor: null,
        tokenId: writer.tokenId,
        canEdit: true,
        expiresAt: null,
      });
      const node = {
        id: 'fox',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: 'a fox', size: '1K', imageUrl: null, aspectRatio: '1:1' },
      };
      const created = await api(server.url, '/api/v2/projects/film/canvases/board/nodes', {
        method: 'POST',
        token: writer.secret,
        headers: { 'x-agent-run-id': writerRun },
        body: { node, base_revision: 0 },
      });
      expect(created.status).toBe(201);
      const submitted = [];
      for (const key of ['a', 'b']) {
        const result = await admin('node-run', 'submit', 'film', 'board', 'fox', '--idempotency-key', key, '--json');
        submitted.push(result.json?.run_id);
      }
      const runs = await admin('node-run', 'list', 'film', 'board', '--json');
      expect((runs.json as { runs: Array<{ run_id: string; status: string }> }).runs.map((run) => run.run_id)).toEqual(
        [...submitted].reverse(),
      );
      const limited = await admin('node-run', 'list', 'film', 'board', '--limit', '1', '--json');
      expect((limited.json as { runs: unknown[] }).runs).toHaveLength(1);
    }, 60_000);

    it('lists sessions by id, never the session secret', async () => {
      const listed = await admin('session', 'list', '--json');
      expect(listed.json).toMatchObject({ sessions: [{ subject: 'dana', session_id: expect.stringMatching(/\S/) }] });
      expect(listed.stdout).not.toContain(sessionSecret);
      expect((await admin('session', 'list')).stdout).not.toContain(sessionSecret);
    }, 60_000);
  });
});
