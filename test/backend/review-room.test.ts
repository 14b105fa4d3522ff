import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, ReviewRoom, RoomEvent, RoomList, ShareLinkView } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { IDP } from './world.js';
import { NATS_URL, natsAvailable } from '../support/nats.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { openEvents, type EventReader } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';

/**
 * The review room's contract over real HTTP (docs/review.md, "The review room"): a member starts a board's room and
 * only they move it, another member only by taking it over; followers' change feeds hear every move in order; a
 * malformed move is refused naming the field; a review link's room stream carries the rooms of its own board and
 * nothing else (no thread, no other board, no member's identity), and ends with the link; the presenting page's
 * leaving ends the room. On SQLite with one server; on PostgreSQL with the presenter on one server process and the
 * followers on another, signalling by NOTIFY and by the NATS feed bus.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const ROOM = `${CANVAS}/nodes/board/room`;
const OLGA = { issuer: IDP, subject: 'olga' };
const ANA = { issuer: IDP, subject: 'ana' };
const VIC = { issuer: IDP, subject: 'vic' };

const frame = (id: string, number: string, action: string) => ({
  id,
  imageUrl: null,
  number,
  action,
  durationMs: 2000,
});
const BOARD = CanvasNode.parse({
  id: 'board',
  type: 'storyboardNode',
  position: { x: 0, y: 0 },
  data: {
    title: 'Harbour opening',
    frames: [
      frame('s1', '1', 'Fog over the bay'),
      frame('s2', '2', 'The keeper climbs'),
      frame('s3', '3', 'The lamp'),
      frame('s4', '4', 'Mara looks up'),
    ],
  },
});
const OTHER_BOARD = CanvasNode.parse({
  id: 'other-board',
  type: 'storyboardNode',
  position: { x: 0, y: 800 },
  data: { title: 'The storm', frames: [frame('t1', '1', 'Waves'), frame('t2', '2', 'The mast')] },
});
const NOTE = CanvasNode.parse({
  id: 'note',
  type: 'textAnnotationNode',
  position: { x: 900, y: 0 },
  data: { content: 'Not a board' },
});

const move = (shot: string, index: number, extra: Record<string, unknown> = {}) => ({
  shot_id: shot,
  shot_index: index,
  playing: false,
  position_ms: 0,
  ...extra,
});

const SETUPS = [
  { name: 'SQLite, one server', store: STORE_TARGETS[0]!, feedBus: null, available: true },
  { name: 'PostgreSQL, two servers by NOTIFY', store: STORE_TARGETS[1]!, feedBus: null, available: true },
  {
    name: 'PostgreSQL, two servers by the NATS feed bus',
    store: STORE_TARGETS[1]!,
    feedBus: NATS_URL,
    available: natsAvailable,
  },
];

describe.each(SETUPS)('the review room: $name', (setup) => {
  describe.skipIf(!setup.store.available || !setup.available)('over real HTTP', () => {
    /** Where the presenter's page is, and where the followers' are (another process on PostgreSQL). */
    let here: TestServer;
    let there: TestServer;
    const cookies: Record<'olga' | 'ana' | 'vic', string> = { olga: '', ana: '', vic: '' };

    const as = (who: keyof typeof cookies, server: TestServer) => ({
      cookie: cookies[who],
      origin: server.url,
      'x-requested-by': 'canvas-mcp',
    });
    const call = (
      who: keyof typeof cookies,
      path: string,
      request: { method?: string; body?: unknown } = {},
      server = here,
    ) => api(server.url, path, { ...request, headers: as(who, server) });
    const feedOf = (who: keyof typeof cookies) => openEvents(`${there.url}${CANVAS}/events`, { cookie: cookies[who] });
    const roomEvents = (reader: EventReader) =>
      reader.events.filter((event) => event.event === 'room').map((event) => RoomEvent.parse(event.data));

    beforeAll(async () => {
      const overrides = { rateLimitPerMinute: 1_000_000, ...(setup.feedBus ? { feedBus: setup.feedBus } : {}) };
      here = await startTestServer(setup.store, overrides);
      there =
        setup.store.name === 'postgres'
          ? await startTestServer(setup.store, overrides, { database: here.database })
          : here;
      const { store } = here;
      await store.projects.createWorkspace('w');
      await store.projects.createProject('p', 'w');
      await store.projects.createCanvas('p', 'c', false);
      await store.writes.applyBatch(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        [
          { op: 'create_node', node: BOARD },
          { op: 'create_node', node: OTHER_BOARD },
          { op: 'create_node', node: NOTE },
        ],
      );
      for (const [who, person, role] of [
        ['olga', OLGA, 'owner'],
        ['ana', ANA, 'editor'],
        ['vic', VIC, 'viewer'],
      ] as const) {
        await store.projects.addMember('p', person, role);
        const secret = await store.sessions.createLoginLink(person, { expiresInMs: 60_000 });
        cookies[who] = (await signInWithLink(`${here.url}/auth/login?token=${secret}`)).cookie;
      }
    }, 60_000);
    afterAll(async () => {
      if (there !== here) await there?.close();
      await here?.close();
    });

    it('only its presenter moves the room, another member only by taking it over; followers hear each move in order', async () => {
      const vic = await feedOf('vic');
      try {
        const started = await call('olga', ROOM, { method: 'PUT', body: move('s1', 0, { tab: 'olga-tab-1' }) });
        expect(started.status, JSON.stringify(started.body)).toBe(200);
        const first = ReviewRoom.parse(started.body);
        expect(first).toMatchObject({
          board_node_id: 'board',
          presenter: { name: 'olga', issuer: IDP, subject: 'olga' },
          shot_id: 's1',
          shot_index: 0,
          playlist: null,
          playing: false,
          seq: 1,
        });
        await vic.waitFor((event) => event.event === 'room' && RoomEvent.parse(event.data).room?.seq === 1);

        // Ana is not the presenter: her move and her end are refused, and the room stays Olga's.
        const refused = await call('ana', ROOM, { method: 'PUT', body: move('s3', 2) });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({
          error: {
            code: 'forbidden',
            details: { reason: 'presented_by_another', presenter: 'olga', field: 'take_over' },
          },
        });
        expect((await call('ana', ROOM, { method: 'DELETE' })).status).toBe(403);
        // The viewer may present too, but not over Olga's room either.
        expect((await call('vic', ROOM, { method: 'PUT', body: move('s3', 2) })).status).toBe(403);

        const played = await call('olga', ROOM, {
          method: 'PUT',
          body: move('s2', 1, { playing: true, position_ms: 2000 }),
        });
        expect(ReviewRoom.parse(played.body)).toMatchObject({
          shot_id: 's2',
          playing: true,
          position_ms: 2000,
          seq: 2,
        });
        const paused = await call('olga', ROOM, { method: 'PUT', body: move('s2', 1, { position_ms: 3100 }) });
        expect(ReviewRoom.parse(paused.body)).toMatchObject({ playing: false, position_ms: 3100, seq: 3 });

        // Ana takes it over, saying so: the same room, hers now, and Olga's next move is refused.
        const taken = await call('ana', ROOM, { method: 'PUT', body: move('s4', 3, { take_over: true }) });
        expect(taken.status).toBe(200);
        expect(ReviewRoom.parse(taken.body)).toMatchObject({
          room_id: first.room_id,
          presenter: { name: 'ana' },
          shot_id: 's4',
          seq: 4,
        });
        expect((await call('olga', ROOM, { method: 'PUT', body: move('s1', 0) })).status).toBe(403);
        await vic.waitFor((event) => event.event === 'room' && RoomEvent.parse(event.data).room?.seq === 4);
        const listed = RoomList.parse((await call('vic', `${CANVAS}/rooms`, {}, there)).body);
        expect(listed.rooms.map((room) => [room.presenter.name, room.shot_id])).toEqual([['ana', 's4']]);

        expect((await call('ana', ROOM, { method: 'DELETE' })).status).toBe(204);
        await vic.waitFor((event) => event.event === 'room' && RoomEvent.parse(event.data).room === null);
        // In order, each once: start, play, pause, takeover, end.
        expect(roomEvents(vic).map((event) => event.room?.seq ?? event.ended)).toEqual([1, 2, 3, 4, 'ended']);
        expect(roomEvents(vic).map((event) => event.room?.presenter.name ?? null)).toEqual([
          'olga',
          'olga',
          'olga',
          'ana',
          null,
        ]);
        expect((await call('ana', ROOM, { method: 'DELETE' })).status).toBe(404);
      } finally {
        vic.close();
      }
    });

    it('refuses a malformed move naming the field, and keeps a playlist of the board’s shots', async () => {
      const refusedAt = async (body: unknown, path = ROOM) => {
        const answer = await call('olga', path, { method: 'PUT', body });
        expect(answer.status, JSON.stringify(answer.body)).toBe(400);
        return (answer.body as { error: { details: { issues: Array<{ path: string }> } } }).error.details.issues.map(
          (issue) => issue.path,
        );
      };
      expect(await refusedAt(move('s2', 0))).toEqual(['shot_index']);
      expect(await refusedAt(move('nope', 0))).toEqual(['shot_id']);
      expect(await refusedAt(move('s1', 0, { playlist: ['s1', 'elsewhere'] }))).toEqual(['playlist.1']);
      expect(await refusedAt(move('s1', 0, { playlist: ['s1', 's1'] }))).toEqual(['playlist.1']);
      expect(await refusedAt(move('s1', 0, { playlist: [] }))).toEqual(['playlist']);
      expect(await refusedAt(move('s1', 0, { playing: 'yes' }))).toEqual(['playing']);
      expect(await refusedAt(move('s1', 0, { position_ms: -1 }))).toEqual(['position_ms']);
      expect(await refusedAt(move('s1', 0, { tab: 'no spaces!' }))).toEqual(['tab']);
      expect(await refusedAt({ ...move('s1', 0), shot: 's1' })).toEqual(['(root)']);
      expect(await refusedAt({ shot_index: 0, playing: false, position_ms: 0 })).toEqual(['shot_id']);
      // A card that is not a storyboard has no room; a token that is no person presents nothing.
      expect((await call('olga', `${CANVAS}/nodes/note/room`, { method: 'PUT', body: move('s1', 0) })).status).toBe(
        404,
      );
      const token = await projectToken(here.store, 'p', 'editor');
      expect((await api(here.url, ROOM, { method: 'PUT', token, body: move('s1', 0) })).status).toBe(403);
      expect(RoomList.parse((await call('olga', `${CANVAS}/rooms`)).body).rooms).toEqual([]);

      // Today's shots, in the presenter's order: the index counts along them, and a move without a playlist keeps it.
      const chosen = await call('olga', ROOM, { method: 'PUT', body: move('s1', 1, { playlist: ['s3', 's1'] }) });
      expect(ReviewRoom.parse(chosen.body)).toMatchObject({ playlist: ['s3', 's1'], shot_index: 1 });
      expect(await refusedAt(move('s2', 0))).toEqual(['shot_id']);
      const kept = await call('olga', ROOM, { method: 'PUT', body: move('s3', 0) });
      expect(ReviewRoom.parse(kept.body)).toMatchObject({ playlist: ['s3', 's1'], shot_id: 's3', shot_index: 0 });
      const every = await call('olga', ROOM, { method: 'PUT', body: move('s2', 1, { playlist: null }) });
      expect(ReviewRoom.parse(every.body)).toMatchObject({ playlist: null, shot_index: 1 });
      expect((await call('olga', ROOM, { method: 'DELETE' })).status).toBe(204);
    });

    it('gives a review link’s guests the rooms of its board alone and nothing else, until the link ends', async () => {
      const link = async (nodeId: string) => {
        const made = await call('olga', `${CANVAS}/share-links`, {
          method: 'POST',
          body: { node_id: nodeId, expires_in_days: 7, downloads: [], review: 'comment' },
        });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        const view = ShareLinkView.parse(made.body);
        return { id: view.share_id, secret: view.url!.split('/share/')[1]! };
      };
      const toBoard = await link('board');
      const toOther = await link('other-board');
      // Olga is already presenting the board when the guest opens the page: the guest hears it at once.
      const tab = 'olga-presenting-tab';
      await call('olga', ROOM, { method: 'PUT', body: move('s2', 1, { tab }) });
      const guest = await openEvents(`${there.url}/api/v1/shared/${toBoard.secret}/room`, {});
      const elsewhere = await openEvents(`${here.url}/api/v1/shared/${toOther.secret}/room`, {});
      try {
        expect(guest.status).toBe(200);
        const seen = await guest.waitFor((event) => event.event === 'room');
        expect(RoomEvent.parse(seen.data).room).toMatchObject({
          board_node_id: 'board',
          shot_id: 's2',
          presenter: { name: 'Team member', issuer: null, subject: null },
        });

        // Meanwhile the team talks in threads, and the client's too: none of it reaches the room stream.
        for (const audience of ['team', 'client'])
          expect(
            (
              await call('ana', `${CANVAS}/threads`, {
                method: 'POST',
                body: {
                  node_id: 'board',
                  shot_id: 's2',
                  body: `Between us (${audience}): the fog is too thick.`,
                  audience,
                },
              })
            ).status,
          ).toBe(201);
        await call('olga', ROOM, { method: 'PUT', body: move('s3', 2, { playing: true, position_ms: 4000 }) });
        await guest.waitFor((event) => event.event === 'room' && RoomEvent.parse(event.data).room?.shot_id === 's3');

        // Ana presents the other board: only that link's guest hears it.
        await call('ana', `${CANVAS}/nodes/other-board/room`, { method: 'PUT', body: move('t2', 1) });
        await elsewhere.waitFor((event) => event.event === 'room');

        // Olga's presenting page leaves the canvas: her room ends for the guest, Ana's stays.
        const leave = await api(here.url, `${CANVAS}/presence?tab=another-tab-of-hers&seq=1`, {
          method: 'DELETE',
          headers: as('olga', here),
        });
        expect(leave.status).toBe(204);
        expect(RoomList.parse((await call('olga', `${CANVAS}/rooms`)).body).rooms).toHaveLength(2);
        await api(here.url, `${CANVAS}/presence?tab=${tab}&seq=2`, { method: 'DELETE', headers: as('olga', here) });
        await guest.waitFor((event) => event.event === 'room' && RoomEvent.parse(event.data).room === null);

        const heard = guest.events.map((event) => [event.event, RoomEvent.parse(event.data)] as const);
        expect(heard.every(([kind, event]) => kind === 'room' && event.board_node_id === 'board')).toBe(true);
        expect(heard.map(([, event]) => event.room?.shot_id ?? event.ended)).toEqual(['s2', 's3', 'presenter_left']);
        const wire = JSON.stringify(guest.events);
        for (const secret of ['fog is too thick', 'olga', 'ana', IDP, 'other-board', 'thread'])
          expect(wire).not.toContain(secret);
        expect(elsewhere.events.map((event) => [event.event, RoomEvent.parse(event.data).board_node_id])).toEqual([
          ['room', 'other-board'],
        ]);

        // The link is revoked: its stream ends, and a new one is refused.
        expect((await call('olga', `${CANVAS}/share-links/${toBoard.id}`, { method: 'DELETE' })).status).toBe(204);
        await guest.closed;
        expect((await api(there.url, `/api/v1/shared/${toBoard.secret}/room`)).status).toBe(404);
        expect((await call('ana', `${CANVAS}/nodes/other-board/room`, { method: 'DELETE' })).status).toBe(204);
      } finally {
        guest.close();
        elsewhere.close();
      }
    }, 30_000);
  });
});

describe('the review room when its presenter goes quiet', () => {
  let server: TestServer;
  let offset = 0;
  let cookie = '';

  beforeAll(async () => {
    server = await startTestServer(
      STORE_TARGETS[0]!,
      { rateLimitPerMinute: 1_000_000 },
      { clock: () => Date.now() + offset },
    );
    const { store } = server;
    await store.projects.createWorkspace('w');
    await store.projects.createProject('p', 'w');
    await store.projects.createCanvas('p', 'c', false);
    await store.writes.createNode(
      { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      BOARD,
    );
    await store.projects.addMember('p', OLGA, 'owner');
    await store.projects.addMember('p', VIC, 'viewer');
    cookie = (
      await signInWithLink(
        `${server.url}/auth/login?token=${await store.sessions.createLoginLink(OLGA, { expiresInMs: 60_000 })}`,
      )
    ).cookie;
  });
  afterAll(async () => server?.close());

  it('lives while the presenter’s page reports its presence, and ends 30 s after it stopped', async () => {
    const headers = { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' };
    const feed = await openEvents(`${server.url}${CANVAS}/events`, { cookie });
    try {
      expect((await api(server.url, ROOM, { method: 'PUT', headers, body: move('s1', 0) })).status).toBe(200);
      offset += 20_000;
      const report = await api(server.url, `${CANVAS}/presence`, {
        method: 'POST',
        headers,
        body: { selection: [], cursor: null },
      });
      expect(report.status).toBe(204);
      // 40 s since the room started, 20 s since the page last said it is there: still led.
      offset += 20_000;
      const rooms = RoomList.parse((await api(server.url, `${CANVAS}/rooms`, { headers })).body).rooms;
      expect(rooms.map((room) => room.shot_id)).toEqual(['s1']);
      // 31 s of silence: the room ends for everyone, as presence forgets the person.
      offset += 11_000;
      const ended = await feed.waitFor((event) => event.event === 'room' && RoomEvent.parse(event.data).room === null);
      expect(RoomEvent.parse(ended.data).ended).toBe('presenter_left');
    } finally {
      feed.close();
    }
  });
});
