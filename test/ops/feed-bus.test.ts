import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canvasSubject } from '../../src/store/feed-bus/index.js';
import type { Store } from '../../src/store/store.js';
import { IDP } from '../backend/world.js';
import { cliProcess, type ServeProcess } from '../support/cli.js';
import { NATS_SERVER_BINARY, NATS_URL, natsAnswers, natsAvailable } from '../support/nats.js';
import { openEvents, type EventReader } from '../support/sse.js';
import { api, signInWithLink } from '../support/servers.js';
import { STORE_TARGETS, openTestStore, type TestDatabase } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * The feed bus (`--feed-bus nats://…`). Server processes on one PostgreSQL signal each other through NATS subjects per
 * canvas instead of NOTIFY: a write on one server reaches the feeds of the others, a server follows only the canvases
 * it has feeds for (and stops when the last closes), and an outage of NATS slows delivery down (the feeds poll) without
 * losing a change, until NATS is back and live delivery resumes.
 *
 * Needs the NATS of this machine at 127.0.0.1:4222 (.ci/run starts it) and, for the restart, the `nats-server` binary:
 * the shared service is never restarted, a throwaway one on a free port is.
 */

const postgres = STORE_TARGETS[1]!;
const NATS_SERVER = NATS_SERVER_BINARY;
if (!NATS_SERVER) console.warn('\n*** no nats-server binary: the NATS restart test is SKIPPED. ***\n');

const BOARD = { project: 'film', canvas: 'board' };
const BOARD_PATH = '/api/v2/projects/film/canvases/board';
const OTHER_PATH = '/api/v2/projects/film/canvases/other';

/** One server's counter or gauge from its /metrics (0 when the series is absent). */
async function metric(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const received = (kind: string) => `canvas_mcp_feed_bus_messages_total{direction="received",kind="${kind}"}`;

/** A database with one project of two canvases, an editor's token, and the servers started on it. */
function cluster(label: string) {
  const state = {
    store: null as Store | null,
    database: null as TestDatabase | null,
    closeStore: null as (() => Promise<void>) | null,
    token: '',
    /** A chat run of the token per canvas path (a write names the run it belongs to, on its canvas). */
    chatRuns: new Map<string, string>(),
    revisions: new Map<string, number>(),
    dirs: [] as string[],
    processes: [] as ServeProcess[],
    readers: [] as EventReader[],
  };

  async function open(): Promise<void> {
    const opened = await openTestStore(postgres);
    state.store = opened.store;
    state.database = opened.database;
    state.closeStore = opened.close;
    const store = opened.store;
    await store.projects.createWorkspace('studio');
    await store.projects.createProject('film', 'studio');
    await store.projects.createCanvas('film', 'board', false);
    await store.projects.createCanvas('film', 'other', false);
    await store.projects.addMember('film', { issuer: IDP, subject: 'ana' }, 'editor');
    const issued = await store.tokens.createToken({
      name: `rest-${label}`,
      kind: 'backend',
      role: 'editor',
      projects: ['film'],
      workspaces: [],
      actor: null,
      expiresAt: null,
    });
    state.token = issued.secret;
    for (const [path, canvasId] of [
      [BOARD_PATH, 'board'],
      [OTHER_PATH, 'other'],
    ] as const) {
      const run = await store.chatRuns.createChatRun({
        projectId: 'film',
        canvasId,
        actor: null,
        tokenId: issued.tokenId,
        canEdit: true,
        expiresAt: null,
      });
      state.chatRuns.set(path, run);
    }
  }

  async function serve(feedBus: string): Promise<{ process: ServeProcess; url: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), `canvas-mcp-bus-${label}-`));
    state.dirs.push(dataDir);
    const location = state.database!.location;
    const child = cliProcess(['serve', '--port', '0', '--no-seed-demo', '--workers', '0'], {
      CANVAS_MCP_DATA_DIR: dataDir,
      CANVAS_MCP_DATABASE_URL: location.kind === 'postgres' ? location.url : '',
      CANVAS_MCP_FEED_BUS: feedBus,
      CANVAS_MCP_LOG_LEVEL: 'info',
    });
    state.processes.push(child);
    const [, url] = (await child.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/)) as [string, string];
    return { process: child, url };
  }

  async function feed(url: string, path = BOARD_PATH): Promise<EventReader> {
    const reader = await openEvents(`${url}${path}/events`, { authorization: `Bearer ${state.token}` });
    expect(reader.status).toBe(200);
    state.readers.push(reader);
    return reader;
  }

  /** Creates a node through `url`; resolves with the revision it made. */
  async function write(url: string, path: string, id: string): Promise<number> {
    const created = await api(url, `${path}/nodes`, {
      method: 'POST',
      token: state.token,
      headers: { 'x-agent-run-id': state.chatRuns.get(path)! },
      body: {
        node: {
          id,
          type: 'imageGenNode',
          position: { x: 0, y: 0 },
          data: { prompt: id, size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
        },
        base_revision: state.revisions.get(path) ?? 0,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const revision = (created.body as { revision: number }).revision;
    state.revisions.set(path, revision);
    return revision;
  }

  const layoutAt = (revision: number) => (event: { event: string; id: string | undefined }) =>
    event.event === 'layout' && event.id === String(revision);

  async function close(): Promise<void> {
    for (const reader of state.readers) reader.close();
    for (const child of state.processes) {
      if (child.child.exitCode === null && child.child.signalCode === null) {
        child.child.kill('SIGTERM');
        await child.exit;
      }
    }
    await state.closeStore?.();
    for (const dir of state.dirs) rmSync(dir, { recursive: true, force: true });
  }

  return { state, open, serve, feed, write, layoutAt, close };
}

describe.skipIf(!postgres.available || !natsAvailable)('three servers on one PostgreSQL with the NATS feed bus', () => {
  const world = cluster('three');
  const urls = { a: '', b: '', c: '' };
  let observer: NatsConnection;
  let feedOnA: EventReader;
  let feedOnB: EventReader;
  let cookie = '';
  const seen = new Map<string, number>();

  beforeAll(async () => {
    await world.open();
    [{ url: urls.a }, { url: urls.b }, { url: urls.c }] = await Promise.all([
      world.serve(NATS_URL),
      world.serve(NATS_URL),
      world.serve(NATS_URL),
    ]);
    // Our own subscription to everything the servers publish, counting messages per subject.
    observer = await connect({ servers: NATS_URL.replace(/^nats:\/\//, '') });
    observer.subscribe('cmcp.>', {
      callback: (error, message) => {
        if (!error) seen.set(message.subject, (seen.get(message.subject) ?? 0) + 1);
      },
    });
    await observer.flush();
  }, 60_000);

  afterAll(async () => {
    await observer?.close();
    await world.close();
  });

  it('a write on the third server reaches the feeds on the other two, through the canvas subject', async () => {
    [feedOnA, feedOnB] = await Promise.all([world.feed(urls.a), world.feed(urls.b)]);
    const [onA, onB] = [feedOnA, feedOnB];
    // Both servers follow the canvas before the write (otherwise the write would reach them only by their first read).
    await waitFor(
      async () =>
        Promise.all([
          metric(urls.a, 'canvas_mcp_feed_bus_subscriptions'),
          metric(urls.b, 'canvas_mcp_feed_bus_subscriptions'),
        ]),
      ([a, b]) => a >= 3 && b >= 3,
      5_000,
    );
    const revision = await world.write(urls.c, BOARD_PATH, 'written-on-c');
    const [eventA, eventB] = await Promise.all([
      onA.waitFor(world.layoutAt(revision), 5_000),
      onB.waitFor(world.layoutAt(revision), 5_000),
    ]);
    expect(JSON.stringify(eventA.data)).toContain('written-on-c');
    expect(JSON.stringify(eventB.data)).toContain('written-on-c');
    expect(seen.get(canvasSubject('layout', BOARD.project, BOARD.canvas))).toBeGreaterThanOrEqual(1);
    // Delivered live, by the bus: each of the two heard the layout signal.
    expect(await metric(urls.a, received('layout'))).toBeGreaterThanOrEqual(1);
    expect(await metric(urls.b, received('layout'))).toBeGreaterThanOrEqual(1);
    expect(await metric(urls.c, 'canvas_mcp_feed_bus_up')).toBe(1);
  });

  it('a server with no subscribers for a canvas receives nothing for it', async () => {
    const otherSubject = canvasSubject('layout', 'film', 'other');
    const before = await Promise.all([urls.a, urls.b, urls.c].map((url) => metric(url, received('layout'))));
    // Nobody watches "other": its write is published, and heard by no server.
    await world.write(urls.a, OTHER_PATH, 'unwatched');
    await waitFor(
      async () => seen.get(otherSubject) ?? 0,
      (count) => count >= 1,
      5_000,
    );
    // A write on the board from C comes after: NATS had routed the unwatched signal (our observer heard it) before C
    // published, so a server subscribed to "other" would have it queued ahead of the board's. Once A and B show the
    // board's, each heard exactly that one signal, and C, with no feed at all, none.
    const revision = await world.write(urls.c, BOARD_PATH, 'after-unwatched');
    await Promise.all([
      feedOnA.waitFor(world.layoutAt(revision), 5_000),
      feedOnB.waitFor(world.layoutAt(revision), 5_000),
    ]);
    const after = await Promise.all([urls.a, urls.b, urls.c].map((url) => metric(url, received('layout'))));
    expect(after).toEqual([before[0]! + 1, before[1]! + 1, 0]);
    expect(await metric(urls.c, received('states'))).toBe(0);
  });

  it("presence goes to the canvas's watchers on the other servers", async () => {
    const link = await world.state.store!.sessions.createLoginLink(
      { issuer: IDP, subject: 'ana' },
      { expiresInMs: 60_000 },
    );
    ({ cookie } = await signInWithLink(`${urls.c}/auth/login?token=${link}`));
    const onB = feedOnB;
    const from = onB.events.length;
    const reported = await fetch(`${urls.c}${BOARD_PATH}/presence`, {
      method: 'POST',
      headers: { cookie, origin: urls.c, 'x-requested-by': 'canvas-mcp', 'content-type': 'application/json' },
      body: JSON.stringify({ selection: ['written-on-c'], cursor: { x: 10, y: 20 } }),
    });
    expect(reported.status, await reported.text()).toBe(204);
    const event = await onB.waitFor(
      (received) => received.event === 'presence' && JSON.stringify(received.data).includes('"ana"'),
      5_000,
      from,
    );
    expect(JSON.stringify(event.data)).toContain('written-on-c');
    expect(seen.get(canvasSubject('presence', 'film', 'board'))).toBeGreaterThanOrEqual(1);
  });

  it('a server drops the canvas subjects when its last feed closes, and hears nothing more of it', async () => {
    const subscriptions = await metric(urls.b, 'canvas_mcp_feed_bus_subscriptions');
    feedOnB.close();
    // Layout, states and presence of the board: three subjects fewer.
    await waitFor(
      () => metric(urls.b, 'canvas_mcp_feed_bus_subscriptions'),
      (count) => count === subscriptions - 3,
      5_000,
    );
    const heardBefore = await metric(urls.b, received('layout'));
    const revision = await world.write(urls.c, BOARD_PATH, 'after-b-left');
    await feedOnA.waitFor(world.layoutAt(revision), 5_000);
    // B then follows "other", and C writes there after the board: C's signals reach B in the order C published them,
    // so once B shows the write on "other", a board signal would already have been counted.
    const otherOnB = await world.feed(urls.b, OTHER_PATH);
    await waitFor(
      () => metric(urls.b, 'canvas_mcp_feed_bus_subscriptions'),
      (count) => count === subscriptions,
      5_000,
    );
    const marker = await world.write(urls.c, OTHER_PATH, 'marker-after-b-left');
    await otherOnB.waitFor(world.layoutAt(marker), 5_000);
    expect(await metric(urls.b, received('layout'))).toBe(heardBefore + 1);
    otherOnB.close();
  });

  it("a server that starts watching a canvas gets the others' presence at once, not at their next report", async () => {
    // A follows "other" (a feed there) and hears ana's entry; C has never followed "other" and did not report it.
    await world.feed(urls.a, OTHER_PATH);
    await waitFor(
      () => metric(urls.a, 'canvas_mcp_feed_bus_subscriptions'),
      (count) => count >= 7,
      5_000,
    );
    const reported = await fetch(`${urls.a}${OTHER_PATH}/presence`, {
      method: 'POST',
      headers: { cookie, origin: urls.a, 'x-requested-by': 'canvas-mcp', 'content-type': 'application/json' },
      body: JSON.stringify({ selection: [], cursor: { x: 1, y: 2 } }),
    });
    expect(reported.status, await reported.text()).toBe(204);
    // C's first feed on "other": its hello is answered by A with the entries A holds; no page reports meanwhile.
    const onC = await world.feed(urls.c, OTHER_PATH);
    const event = await onC.waitFor(
      (received) => received.event === 'presence' && JSON.stringify(received.data).includes('"ana"'),
      3_000,
    );
    expect(JSON.stringify(event.data)).toContain('"cursor":{"x":1,"y":2}');
  });
});

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe.skipIf(!postgres.available || !NATS_SERVER)('the feed bus restarted mid-test', () => {
  const world = cluster('restart');
  let port = 0;
  let nats: ChildProcess | null = null;
  const servers: Array<{ process: ServeProcess; url: string }> = [];

  /** A throwaway nats-server on `port` (never the machine's shared one); resolves once it accepts clients. */
  async function startNats(): Promise<void> {
    nats = spawn(NATS_SERVER!, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    await waitFor(
      () => natsAnswers(`nats://127.0.0.1:${port}`),
      (up) => up,
      10_000,
    );
  }

  async function stopNats(): Promise<void> {
    const running = nats;
    nats = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  beforeAll(async () => {
    port = await freePort();
    await startNats();
    await world.open();
    // With credentials in the URL (a NATS without authorization accepts them): they must never reach a log line.
    const url = `nats://bus-user:bus-secret@127.0.0.1:${port}`;
    servers.push(...(await Promise.all([world.serve(url), world.serve(url)])));
  }, 60_000);

  afterAll(async () => {
    await world.close();
    await stopNats();
  });

  it('delivers live, then by polling while NATS is down, then live again once it is back', async () => {
    const [writer, reader] = servers as [
      { process: ServeProcess; url: string },
      { process: ServeProcess; url: string },
    ];
    const feed = await world.feed(reader.url);
    await waitFor(
      () => metric(reader.url, 'canvas_mcp_feed_bus_subscriptions'),
      (count) => count >= 3,
      5_000,
    );
    const live = await world.write(writer.url, BOARD_PATH, 'before-outage');
    await feed.waitFor(world.layoutAt(live), 5_000);
    expect(await metric(reader.url, received('layout'))).toBe(1);

    await stopNats();
    await waitFor(
      () => metric(reader.url, 'canvas_mcp_feed_bus_up'),
      (up) => up === 0,
      5_000,
    );
    // Written while the bus is down: the reader's feed polls the store and still gets it.
    const during = await world.write(writer.url, BOARD_PATH, 'during-outage');
    const polled = await feed.waitFor(world.layoutAt(during), 5_000);
    expect(JSON.stringify(polled.data)).toContain('during-outage');
    expect(await metric(reader.url, 'canvas_mcp_feed_bus_outages_total')).toBe(1);
    expect(await metric(reader.url, received('layout'))).toBe(1);
    // One clear line each, without credentials.
    const [line] = await reader.process.waitFor(/.*feed bus unavailable.*/, 5_000);
    expect(line).toContain(`"feed_bus":"nats://127.0.0.1:${port}"`);
    await writer.process.waitFor(/feed bus unavailable/, 5_000);

    await startNats();
    await waitFor(
      async () =>
        Promise.all([metric(reader.url, 'canvas_mcp_feed_bus_up'), metric(writer.url, 'canvas_mcp_feed_bus_up')]),
      ([readerUp, writerUp]) => readerUp === 1 && writerUp === 1,
      10_000,
    );
    await reader.process.waitFor(/feed bus available again/, 5_000);
    const heard = await metric(reader.url, received('layout'));
    const after = await world.write(writer.url, BOARD_PATH, 'after-outage');
    await feed.waitFor(world.layoutAt(after), 5_000);
    // Live again: the reader heard the signal on its re-established subscription (not only its poll).
    await waitFor(
      () => metric(reader.url, received('layout')),
      (count) => count > heard,
      5_000,
    );
    for (const server of servers) expect(server.process.output()).not.toContain('bus-secret');
    // Every revision arrived once, in order.
    const revisions = feed.events.filter((event) => event.event === 'layout').map((event) => Number(event.id));
    expect(revisions).toEqual([live, during, after]);
  });
});
