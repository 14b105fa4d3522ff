import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION, type NodeRun } from '../../src/contract/index.js';
import type { Store } from '../../src/store/store.js';
import { IDP } from '../backend/world.js';
import { cliProcess, type ServeProcess } from '../support/cli.js';
import { FILM_CANVAS, PNG_SIGNATURE } from '../support/finished-image.js';
import { openEvents, type EventReader } from '../support/sse.js';
import { NATS_URL, natsAvailable } from '../support/nats.js';
import { api, signInWithLink } from '../support/servers.js';
import { STORE_TARGETS, openTestStore, type TestDatabase } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Many servers on one PostgreSQL. Two `serve` processes, each with its own data dir, and one `worker` process share a
 * database and keep assets in it (`--asset-store postgres`). A run the worker executes is viewed and its image
 * downloaded through either server; the feed of one shows the other's writes; a person's session works on both; killing
 * either server loses nothing acknowledged.
 *
 * Twice: processes signalling each other with PostgreSQL NOTIFY, and through the NATS feed bus (`--feed-bus`,
 * test/ops/feed-bus.test.ts has its own cases).
 */

const postgres = STORE_TARGETS[1]!;
const SIGNALS = [
  { name: 'NOTIFY', feedBus: null, available: true },
  { name: 'the NATS feed bus', feedBus: NATS_URL, available: natsAvailable },
];

describe.each(SIGNALS)('two servers and a worker on one PostgreSQL, signalling with $name', (signals) => {
  describe.skipIf(!postgres.available || !signals.available)('on the real services', () => {
    let store: Store;
    let database: TestDatabase;
    let closeStore: () => Promise<void>;
    const dirs: string[] = [];
    const processes: ServeProcess[] = [];
    const urls: { a: string; b: string } = { a: '', b: '' };
    let token: string;
    let chatRun: string;
    let cookie: string;
    let feedOnB: EventReader;
    let revision = 0;
    const acknowledged: string[] = [];

    function start(args: string[]): ServeProcess {
      const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-many-'));
      dirs.push(dataDir);
      const url = database.location.kind === 'postgres' ? database.location.url : '';
      const child = cliProcess(args, {
        CANVAS_MCP_DATA_DIR: dataDir,
        CANVAS_MCP_DATABASE_URL: url,
        CANVAS_MCP_ASSET_STORE: 'postgres',
        CANVAS_MCP_LOG_LEVEL: 'info',
        CANVAS_MCP_RUN_DURATION_MS: '50',
        ...(signals.feedBus ? { CANVAS_MCP_FEED_BUS: signals.feedBus } : {}),
      });
      processes.push(child);
      return child;
    }

    async function startServe(): Promise<{ process: ServeProcess; url: string }> {
      const serve = start(['serve', '--port', '0', '--no-seed-demo', '--workers', '0']);
      const [, url] = (await serve.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/)) as [string, string];
      return { process: serve, url };
    }

    const headers = () => ({ 'x-agent-run-id': chatRun });

    async function createNode(
      baseUrl: string,
      id: string,
      data: Record<string, unknown> = { prompt: id, size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
    ): Promise<void> {
      const node = { id, type: 'imageGenNode', position: { x: acknowledged.length * 320, y: 0 }, data };
      const created = await api(baseUrl, `${FILM_CANVAS}/nodes`, {
        method: 'POST',
        token,
        headers: headers(),
        body: { node, base_revision: revision },
      });
      expect(created.status).toBe(201);
      revision = (created.body as { revision: number }).revision;
      acknowledged.push(id);
    }

    let serveA: ServeProcess;

    beforeAll(async () => {
      ({ store, database, close: closeStore } = await openTestStore(postgres));
      await store.projects.createWorkspace('studio');
      await store.projects.createProject('film', 'studio');
      await store.projects.createCanvas('film', 'board', false);
      await store.projects.addMember('film', { issuer: IDP, subject: 'ana' }, 'editor');
      const issued = await store.tokens.createToken({
        name: 'rest',
        kind: 'backend',
        role: 'editor',
        projects: ['film'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      token = issued.secret;
      chatRun = await store.chatRuns.createChatRun({
        projectId: 'film',
        canvasId: 'board',
        actor: null,
        tokenId: issued.tokenId,
        canEdit: true,
        expiresAt: null,
      });

      const [a, b] = await Promise.all([startServe(), startServe()]);
      serveA = a.process;
      urls.a = a.url;
      urls.b = b.url;
      const worker = start(['worker', '--workers', '1']);
      await worker.waitFor(/running 1 workers on postgres/);
    }, 60_000);

    afterAll(async () => {
      feedOnB?.close();
      for (const child of processes) {
        if (child.child.exitCode === null && child.child.signalCode === null) {
          child.child.kill('SIGTERM');
          await child.exit;
        }
      }
      await closeStore?.();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it("a person's session, signed in on one server, works on the other", async () => {
      const link = await store.sessions.createLoginLink({ issuer: IDP, subject: 'ana' }, { expiresInMs: 60_000 });
      ({ cookie } = await signInWithLink(`${urls.a}/auth/login?token=${link}`));
      for (const url of [urls.a, urls.b]) {
        const me = await fetch(`${url}/api/v1/me`, { headers: { cookie } });
        expect(me.status).toBe(200);
        expect(await me.json()).toMatchObject({ kind: 'person', person: { subject: 'ana' } });
      }
    });

    it("the feed of one server shows the other's writes", async () => {
      feedOnB = await openEvents(`${urls.b}${FILM_CANVAS}/events`, { authorization: `Bearer ${token}` });
      expect(feedOnB.status).toBe(200);
      await createNode(urls.a, 'written-on-a');
      const event = await feedOnB.waitFor(
        (received) => received.event === 'layout' && received.id === String(revision),
        5_000,
      );
      expect(JSON.stringify(event.data)).toContain('written-on-a');
    });

    it('a run the worker executes is viewed, and its image downloaded, through either server', async () => {
      await createNode(urls.b, 'still');
      const submitted = await api(urls.a, `${FILM_CANVAS}/nodes/still/runs`, {
        method: 'POST',
        token,
        headers: headers(),
      });
      expect(submitted.status).toBe(202);
      const runId = (submitted.body as NodeRun).run_id;
      const fromB = await waitFor(
        async () => (await api(urls.b, `${FILM_CANVAS}/runs/${runId}`, { token })).body as NodeRun,
        (run) => run.status === 'succeeded',
        20_000,
      );
      const fromA = (await api(urls.a, `${FILM_CANVAS}/runs/${runId}`, { token })).body as NodeRun;
      expect(fromA.outputs.map((output) => output.asset_id)).toEqual(fromB.outputs.map((output) => output.asset_id));
      const assetId = fromB.outputs[0]!.asset_id;
      expect((await store.assets.getAsset(assetId))?.storage).toBe('postgres');

      // Each server's signed URL works on both (they share the signing secret), and so does a member's session.
      const downloads: Buffer[] = [];
      for (const url of [urls.a, urls.b]) {
        for (const output of [fromA.outputs[0]!, fromB.outputs[0]!]) {
          const response = await fetch(`${url}${output.url}`);
          expect(response.status).toBe(200);
          downloads.push(Buffer.from(await response.arrayBuffer()));
        }
        const bySession = await fetch(`${url}/assets/${assetId}`, { headers: { cookie } });
        expect(bySession.status).toBe(200);
        downloads.push(Buffer.from(await bySession.arrayBuffer()));
      }
      expect(downloads[0]!.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      for (const bytes of downloads) expect(bytes).toEqual(downloads[0]);
      // No server wrote the image into its own data dir.
      for (const dir of dirs)
        expect(readdirSync(join(dir, 'assets')).filter((name) => !name.startsWith('.'))).toEqual([]);
    });

    it('killing a server loses nothing: every acknowledged write, the session and the assets are there on the other', async () => {
      const writes = Array.from({ length: 5 }, (_, index) => `before-kill-${index}`);
      for (const id of writes)
        await createNode(urls.a, id, { prompt: id, size: '0.5K', imageUrl: null, aspectRatio: '1:1' });
      serveA.child.kill('SIGKILL');
      await serveA.exit;
      const snapshot = await api(urls.b, `${FILM_CANVAS}/snapshot`, {
        token,
        headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
      });
      expect(snapshot.status).toBe(200);
      const layout = (snapshot.body as { layout: { revision: number; nodes: Array<{ id: string }> } }).layout;
      expect(layout.revision).toBe(revision);
      expect(layout.nodes.map((node) => node.id).sort()).toEqual([...acknowledged].sort());
      expect((await fetch(`${urls.b}/api/v1/me`, { headers: { cookie } })).status).toBe(200);
      await createNode(urls.b, 'after-kill');
      await feedOnB.waitFor((received) => received.event === 'layout' && received.id === String(revision), 5_000);
    });
  });
});
