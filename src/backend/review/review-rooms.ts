import { randomUUID } from 'node:crypto';
import {
  dataOf,
  ROOM_PLAYLIST_MAX_BYTES,
  type CanvasRef,
  type ReviewRoom,
  type RoomEndReason,
  type RoomEvent,
  type RoomMoveBody,
} from '../../contract/index.js';
import { CanvasError, invalidArgumentsOf } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { roomOrder } from '../../shared/room-order.js';
import type { Logger } from '../../shared/logger.js';
import { REVIEW_ROOM_CHANNEL } from '../../store/feed-bus/index.js';
import type { Store } from '../../store/store.js';
import { MEMBER_NAME_FOR_GUESTS } from '../deliverables/share-links.js';
import { feedEvent, type FeedEvent, type FeedSubscriber } from '../feed/feed-hub.js';
import { PERSON_TTL_MS, personPresenceKey } from '../presence/presence.js';

/**
 * Review rooms (docs/review.md, "The review room"), in memory: per canvas and board, the room a member presents, which
 * members' change feeds and the room streams of review links showing the board follow. Only its presenter moves it;
 * another member takes it over only by saying so. It ends when the presenter ends it, when the presenter's page
 * leaves the canvas (its presence leaving, from the tab that presents), or when nothing was heard from the presenter
 * (a move, or the presence report a page sends at least every 10 s) for PERSON_TTL_MS, as presence forgets a person.
 *
 * Across server processes (PostgreSQL's NOTIFY, or the feed bus's one `rooms` subject when `--feed-bus` is set) every
 * change is sent whole to every process, which holds every room: a room moves at a person's pace, and a move must find
 * its room on whichever process it lands. A process that starts asks the others (hello) for the rooms they hold, and
 * asks again when the bus or the database comes back. Times travel as ages: two servers' clocks need not agree. On
 * SQLite there is one process.
 */

/** How often a presenter's presence reports cross to the other processes, to keep their copy of the room alive. */
const ALIVE_SEND_MS = 5_000;
const SWEEP_MS = 1_000;
/** A room that ended is remembered this long, so a late signal of it does not bring it back. */
const ENDED_MEMORY_MS = 60_000;

export interface RoomPerson {
  issuer: string;
  subject: string;
}

interface Held {
  projectId: string;
  canvasId: string;
  room: ReviewRoom;
  presenterKey: string;
  tab: string | null;
  /** This process's clock: when the room started (the newer of two rooms of one board wins), last heard from. */
  startedAt: number;
  heardAt: number;
  aliveSentAt: number;
}

interface Place {
  origin: string;
  project: string;
  canvas: string;
  board: string;
}
type Signal =
  | (Place & {
      kind: 'room';
      room: ReviewRoom;
      presenter_key: string;
      tab: string | null;
      started_ms_ago: number;
      heard_ms_ago: number;
    })
  | (Place & { kind: 'alive'; room_id: string })
  | (Place & { kind: 'ended'; room_id: string; reason: RoomEndReason })
  | { origin: string; kind: 'hello' };

export interface RoomWatchOptions {
  /** A review link's guest: presenters by "Team member" alone. */
  guest?: boolean;
  /** The boards this watcher may hear of (a review link's); all of the canvas's when left out. */
  shows?: (boardNodeId: string) => boolean;
  /** Told when an event could not be queued (a guest's stream is then closed: its page comes back for the state). */
  onFull?: () => void;
}

interface Watcher extends RoomWatchOptions {
  subscriber: FeedSubscriber;
}

function forGuests(room: ReviewRoom): ReviewRoom {
  return { ...room, presenter: { name: MEMBER_NAME_FOR_GUESTS, issuer: null, subject: null } };
}

export async function createReviewRooms(store: Store, logger: Logger, clock: () => number = Date.now) {
  const origin = randomUUID();
  const rooms = new Map<string, Held>();
  const ended = new Map<string, number>();
  const watchers = new Map<string, Set<Watcher>>();
  const canvasKey = (projectId: string, canvasId: string) => `${projectId}\u0000${canvasId}`;
  const roomKey = (projectId: string, canvasId: string, board: string) =>
    `${canvasKey(projectId, canvasId)}\u0000${board}`;
  const crossesProcesses = store.dialect === 'postgres' || store.bus !== null;

  /**
   * Sends a signal to the other processes. A move's answer waits for its signal: the presenter's next move, on any
   * connection, then goes after it, so the other processes hear a room's moves in order.
   */
  async function send(signal: Signal): Promise<void> {
    if (!crossesProcesses) return;
    await store.driver
      .notify(store.driver, REVIEW_ROOM_CHANNEL, JSON.stringify(signal))
      .catch((error: unknown) => logger.warn({ err: error }, 'a review room signal was not sent'));
  }

  function roomSignal(held: Held): Signal {
    const now = clock();
    return {
      origin,
      kind: 'room',
      project: held.projectId,
      canvas: held.canvasId,
      board: held.room.board_node_id,
      room: held.room,
      presenter_key: held.presenterKey,
      tab: held.tab,
      started_ms_ago: Math.max(0, now - held.startedAt),
      heard_ms_ago: Math.max(0, now - held.heardAt),
    };
  }

  /** Tells the canvas's watchers what became of a board's room: each member's frame built once, each guest's once. */
  function tell(projectId: string, canvasId: string, board: string, room: ReviewRoom | null, why?: RoomEndReason) {
    const set = watchers.get(canvasKey(projectId, canvasId));
    if (!set?.size) return;
    let member: FeedEvent | null = null;
    let guest: FeedEvent | null = null;
    const frame = (forGuest: boolean): FeedEvent => {
      const event: RoomEvent = {
        board_node_id: board,
        room: room && forGuest ? forGuests(room) : room,
        ...(why ? { ended: why } : {}),
      };
      return feedEvent('room', JSON.stringify(event));
    };
    for (const watcher of [...set]) {
      if (watcher.shows && !watcher.shows(board)) continue;
      const event = watcher.guest ? (guest ??= frame(true)) : (member ??= frame(false));
      if (!watcher.subscriber.send(event)) watcher.onFull?.();
    }
  }

  function put(held: Held): void {
    rooms.set(roomKey(held.projectId, held.canvasId, held.room.board_node_id), held);
    tell(held.projectId, held.canvasId, held.room.board_node_id, held.room);
  }

  async function end(key: string, held: Held, why: RoomEndReason, announce: boolean): Promise<void> {
    if (rooms.get(key) !== held) return;
    rooms.delete(key);
    ended.set(held.room.room_id, clock());
    tell(held.projectId, held.canvasId, held.room.board_node_id, null, why);
    if (announce)
      await send({
        origin,
        kind: 'ended',
        project: held.projectId,
        canvas: held.canvasId,
        board: held.room.board_node_id,
        room_id: held.room.room_id,
        reason: why,
      });
  }

  /** What another process said, applied unless it is older than what this one holds. */
  function heard(payload: string): void {
    let signal: Signal;
    try {
      signal = JSON.parse(payload) as Signal;
    } catch (error) {
      logger.warn({ err: error }, 'a review room signal could not be read');
      return;
    }
    if (signal.origin === origin) return;
    if (signal.kind === 'hello') {
      for (const held of rooms.values()) void send(roomSignal(held));
      return;
    }
    const key = roomKey(signal.project, signal.canvas, signal.board);
    const held = rooms.get(key);
    const now = clock();
    if (signal.kind === 'ended') {
      if (held?.room.room_id === signal.room_id) void end(key, held, signal.reason, false);
      else ended.set(signal.room_id, now);
      return;
    }
    if (signal.kind === 'alive') {
      if (held?.room.room_id === signal.room_id) held.heardAt = now;
      return;
    }
    if (ended.has(signal.room.room_id)) return;
    const startedAt = now - signal.started_ms_ago;
    const heardAt = now - signal.heard_ms_ago;
    if (held) {
      const same = held.room.room_id === signal.room.room_id;
      // The same room: its newer move; two rooms of one board started at once on two processes: the newer start.
      if (same && signal.room.seq <= held.room.seq) {
        held.heardAt = Math.max(held.heardAt, heardAt);
        return;
      }
      if (!same && startedAt < held.startedAt) return;
    }
    put({
      projectId: signal.project,
      canvasId: signal.canvas,
      room: signal.room,
      presenterKey: signal.presenter_key,
      tab: signal.tab,
      startedAt,
      heardAt,
      aliveSentAt: now,
    });
  }

  // Back after an outage of the bus or the database: ask again for what was said meanwhile.
  const hello = () => void send({ origin, kind: 'hello' });
  const stopListening = crossesProcesses
    ? await store.listen(REVIEW_ROOM_CHANNEL, heard, hello)
    : async () => undefined;
  hello();

  const sweep = setInterval(() => {
    const now = clock();
    for (const [key, held] of rooms)
      if (now - held.heardAt > PERSON_TTL_MS) void end(key, held, 'presenter_left', true);
    for (const [roomId, at] of ended) if (now - at > ENDED_MEMORY_MS) ended.delete(roomId);
  }, SWEEP_MS);
  sweep.unref();

  /** The shot ids of a storyboard of the canvas, in order; not_found for anything else. */
  async function boardShots(ref: CanvasRef, boardNodeId: string): Promise<string[]> {
    const found = await store.layout.readNode(ref.projectId, ref.canvasId, boardNodeId);
    const board = dataOf(found?.node, 'storyboardNode');
    if (!board) throw new CanvasError('not_found', `No storyboard ${boardNodeId} on canvas ${ref.canvasId}.`);
    return board.frames.map((frame) => frame.id);
  }

  function checkPlaylist(playlist: readonly string[], shots: readonly string[]): void {
    const known = new Set(shots);
    const seen = new Set<string>();
    for (const [index, shotId] of playlist.entries()) {
      if (!known.has(shotId))
        throw invalidArgumentsOf([{ path: `playlist.${index}`, message: `${shotId} is not a shot of this board` }]);
      if (seen.has(shotId))
        throw invalidArgumentsOf([{ path: `playlist.${index}`, message: `${shotId} is in the playlist twice` }]);
      seen.add(shotId);
    }
    const bytes = Buffer.byteLength(JSON.stringify(playlist));
    if (bytes > ROOM_PLAYLIST_MAX_BYTES)
      throw invalidArgumentsOf([
        {
          path: 'playlist',
          message: `its shot ids take ${bytes} bytes, more than ${ROOM_PLAYLIST_MAX_BYTES}: pick fewer shots`,
        },
      ]);
  }

  return {
    /**
     * Starts the board's room, or moves it: only its presenter, or another member who says take_over. Answers the room
     * as it now is; malformed state is refused naming the field.
     */
    async move(ref: CanvasRef, boardNodeId: string, person: RoomPerson, body: RoomMoveBody): Promise<ReviewRoom> {
      const shots = await boardShots(ref, boardNodeId);
      if (body.playlist) checkPlaylist(body.playlist, shots);
      const key = roomKey(ref.projectId, ref.canvasId, boardNodeId);
      const held = rooms.get(key);
      const presenterKey = personPresenceKey(person);
      if (held && held.presenterKey !== presenterKey && body.take_over !== true)
        throw new CanvasError(
          'forbidden',
          `${held.room.presenter.name} is presenting this board: only they move the room, unless you take it over (take_over: true).`,
          { reason: 'presented_by_another', presenter: held.room.presenter.name, field: 'take_over' },
        );
      const playlist = body.playlist === undefined ? (held?.room.playlist ?? null) : body.playlist;
      const order = roomOrder(shots, playlist);
      const at = order.indexOf(body.shot_id);
      if (at < 0)
        throw invalidArgumentsOf([
          { path: 'shot_id', message: `${body.shot_id} is not a shot of this board${playlist ? "'s playlist" : ''}` },
        ]);
      if (at !== body.shot_index)
        throw invalidArgumentsOf([
          { path: 'shot_index', message: `shot ${body.shot_id} is at ${at} of the ${playlist ? 'playlist' : 'board'}` },
        ]);
      const now = clock();
      const room: ReviewRoom = {
        room_id: held?.room.room_id ?? newId('room_'),
        board_node_id: boardNodeId,
        presenter: {
          name: (await store.names.nameOf(person)) ?? person.subject,
          issuer: person.issuer,
          subject: person.subject,
        },
        shot_id: body.shot_id,
        shot_index: body.shot_index,
        playlist,
        playing: body.playing,
        position_ms: body.position_ms,
        updated_at: new Date(now).toISOString(),
        seq: (held?.room.seq ?? 0) + 1,
      };
      const next: Held = {
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        room,
        presenterKey,
        tab: body.tab ?? (held?.presenterKey === presenterKey ? held.tab : null),
        startedAt: held?.startedAt ?? now,
        heardAt: now,
        aliveSentAt: now,
      };
      put(next);
      await send(roomSignal(next));
      return room;
    },

    /** The presenter ends the room for everyone; anyone else is refused. */
    async end(ref: CanvasRef, boardNodeId: string, person: RoomPerson): Promise<void> {
      const key = roomKey(ref.projectId, ref.canvasId, boardNodeId);
      const held = rooms.get(key);
      if (!held) throw new CanvasError('not_found', `Nobody is presenting ${boardNodeId}.`);
      if (held.presenterKey !== personPresenceKey(person))
        throw new CanvasError('forbidden', `${held.room.presenter.name} is presenting this board: only they end it.`, {
          reason: 'presented_by_another',
          presenter: held.room.presenter.name,
        });
      await end(key, held, 'ended', true);
    },

    /** A presence report of a person: the rooms they present on the canvas are still led. */
    heardFrom(projectId: string, canvasId: string, personKey: string): void {
      const now = clock();
      for (const held of rooms.values()) {
        if (held.projectId !== projectId || held.canvasId !== canvasId || held.presenterKey !== personKey) continue;
        held.heardAt = now;
        if (now - held.aliveSentAt < ALIVE_SEND_MS) continue;
        held.aliveSentAt = now;
        void send({
          origin,
          kind: 'alive',
          project: projectId,
          canvas: canvasId,
          board: held.room.board_node_id,
          room_id: held.room.room_id,
        });
      }
    },

    /** A person's page left the canvas: the rooms they present from that tab (or from a page that named none) end. */
    async left(projectId: string, canvasId: string, personKey: string, tab: string | null): Promise<void> {
      const leaving = [...rooms].filter(
        ([, held]) =>
          held.projectId === projectId &&
          held.canvasId === canvasId &&
          held.presenterKey === personKey &&
          (held.tab === null || tab === null || held.tab === tab),
      );
      await Promise.all(leaving.map(([key, held]) => end(key, held, 'presenter_left', true)));
    },

    /** The canvas's rooms now (members' view). */
    list(projectId: string, canvasId: string): ReviewRoom[] {
      return [...rooms.values()]
        .filter((held) => held.projectId === projectId && held.canvasId === canvasId)
        .map((held) => held.room);
    },

    /** Sends the canvas's rooms now (those the watcher may hear of) and every change until the answer is called. */
    watch(projectId: string, canvasId: string, subscriber: FeedSubscriber, options: RoomWatchOptions = {}) {
      const key = canvasKey(projectId, canvasId);
      const set = watchers.get(key) ?? new Set<Watcher>();
      const watcher: Watcher = { subscriber, ...options };
      set.add(watcher);
      watchers.set(key, set);
      for (const held of rooms.values()) {
        if (held.projectId !== projectId || held.canvasId !== canvasId) continue;
        if (options.shows && !options.shows(held.room.board_node_id)) continue;
        const event: RoomEvent = {
          board_node_id: held.room.board_node_id,
          room: options.guest ? forGuests(held.room) : held.room,
        };
        subscriber.send(feedEvent('room', JSON.stringify(event)));
      }
      return () => {
        set.delete(watcher);
        if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
      };
    },

    async close(): Promise<void> {
      clearInterval(sweep);
      await stopListening();
    },
  };
}

export type ReviewRooms = Awaited<ReturnType<typeof createReviewRooms>>;
