import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ReviewRoom, RoomEndReason, RoomEvent, RoomMoveBody } from '../../../src/contract/index.js';
import { ApiError, api, newKey, type CanvasAddress } from './api.js';

/**
 * The review room as a page sees it (docs/review.md, "The review room"): the rooms of the boards it shows, as the
 * change feed's `room` events (members) or a share link's room stream (guests) tell them; whether the person follows
 * one, and has stepped away from it; whether they present one. A presenter's moves go to the server one at a time,
 * the newest waiting while one is on its way, so a burst of key presses costs a request per answer, never a queue.
 * Plain TypeScript: Present and the pages' banners read it.
 */

export interface HeldRoom {
  room: ReviewRoom;
  /** This page's clock when the room's state arrived: a playing room's position runs on from here. */
  receivedAt: number;
}

export interface RoomData {
  rooms: Record<string, HeldRoom>;
  /** The board whose room the person follows, and whether they stepped away to browse on their own. */
  following: string | null;
  away: boolean;
  /** The board the person presents (from their "Present to everyone" until they end it or someone takes over). */
  presenting: string | null;
  /** The room the person followed or presented has ended, or was taken over: what to tell them. */
  notice: string | null;
}

/** A move as Present makes it: where the presenter is, with the playlist it steps through. */
export type RoomMove = Omit<RoomMoveBody, 'take_over' | 'tab'>;

export interface RoomSender {
  move(board: string, body: RoomMoveBody): Promise<ReviewRoom>;
  end(board: string): Promise<void>;
}

export interface RoomController {
  store: StoreApi<RoomData>;
  /** What the page's stream says: a room changed or ended; the stream (re)connected and the rooms come again. */
  feed: { room(event: RoomEvent): void; connected(): void };
  /** Whether the person may present (members; a link's guests only follow). */
  readonly canPresent: boolean;
  /** Whether the person on this page presents this room. */
  isMine(room: ReviewRoom): boolean;
  follow(board: string): void;
  stopFollowing(): void;
  stepAway(): void;
  rejoin(): void;
  /** Starts presenting the board (takeOver: from whoever presents it now), or moves the room the person presents. */
  present(board: string, move: RoomMove, takeOver?: boolean): void;
  endPresenting(): void;
  dismissNotice(): void;
}

/** The room's position in its animatic now: a playing room has run on since its state arrived. */
export function positionNow(held: HeldRoom, now = Date.now()): number {
  return held.room.playing ? held.room.position_ms + Math.max(0, now - held.receivedAt) : held.room.position_ms;
}

/** Whether this room state is newer than the one held (a late or repeated event changes nothing). */
export function isNewer(held: HeldRoom | undefined, room: ReviewRoom): boolean {
  return !held || held.room.room_id !== room.room_id || room.seq > held.room.seq;
}

const ENDED_TEXT: Record<RoomEndReason, string> = {
  ended: 'stopped presenting',
  presenter_left: 'left, so the room ended',
};

export function createRoomController(options: {
  /** The person on this page (members), to tell their own room from others'; null for a guest. */
  me: () => { issuer: string; subject: string } | null;
  /** How a member's moves reach the server; null: the page only follows (a guest). */
  sender: RoomSender | null;
  /** The presenting page's tab, as its presence reports name it: its leaving ends the room. */
  tab?: string;
  clock?: () => number;
}): RoomController {
  const clock = options.clock ?? Date.now;
  const store = createStore<RoomData>(() => ({
    rooms: {},
    following: null,
    away: false,
    presenting: null,
    notice: null,
  }));
  const isMe = (room: ReviewRoom) => {
    const me = options.me();
    return !!me && room.presenter.issuer === me.issuer && room.presenter.subject === me.subject;
  };

  // One move on its way at a time; the newest waits for its answer.
  let inFlight: Promise<void> | null = null;
  let waiting: { board: string; body: RoomMoveBody } | null = null;
  function pump(): void {
    if (inFlight || !waiting || !options.sender) return;
    const { board, body } = waiting;
    waiting = null;
    inFlight = send(options.sender, board, body).finally(() => {
      inFlight = null;
      pump();
    });
  }
  async function send(sender: RoomSender, board: string, body: RoomMoveBody): Promise<void> {
    try {
      const room = await sender.move(board, body);
      heard({ board_node_id: board, room });
    } catch (error) {
      if (store.getState().presenting === board) {
        waiting = null;
        const refused = error instanceof ApiError && error.details.reason === 'presented_by_another';
        store.setState({
          presenting: null,
          notice: refused
            ? `${String(error.details.presenter)} is presenting this board: take it over to lead the room.`
            : `The room did not move: ${(error as Error).message}`,
        });
      }
    }
  }

  function heard(event: RoomEvent): void {
    const state = store.getState();
    const board = event.board_node_id;
    const held = state.rooms[board];
    if (!event.room) {
      if (!held) return;
      const rooms = { ...state.rooms };
      delete rooms[board];
      const mine = state.following === board || state.presenting === board;
      store.setState({
        rooms,
        ...(state.following === board ? { following: null, away: false } : {}),
        ...(state.presenting === board ? { presenting: null } : {}),
        ...(mine && state.presenting !== board
          ? { notice: `${held.room.presenter.name} ${ENDED_TEXT[event.ended ?? 'ended']}.` }
          : {}),
      });
      return;
    }
    const room = event.room;
    if (!isNewer(held, room)) return;
    const next: Partial<RoomData> = { rooms: { ...state.rooms, [board]: { room, receivedAt: clock() } } };
    // Someone took the room over from this person: they follow it from here, where it is.
    if (state.presenting === board && !isMe(room)) {
      Object.assign(next, {
        presenting: null,
        following: board,
        away: false,
        notice: `${room.presenter.name} took over the room.`,
      });
      waiting = null;
    }
    store.setState(next);
  }

  return {
    store,
    canPresent: options.sender !== null,
    isMine: isMe,
    feed: {
      room: heard,
      // The stream sends every room again once connected: whatever it does not send has ended meanwhile.
      connected: () => store.setState({ rooms: {} }),
    },
    follow: (board) => store.setState({ following: board, away: false, notice: null }),
    stopFollowing: () => store.setState({ following: null, away: false }),
    stepAway: () => {
      if (store.getState().following) store.setState({ away: true });
    },
    rejoin: () => store.setState({ away: false }),
    present(board, move, takeOver = false) {
      if (!options.sender) return;
      const state = store.getState();
      if (state.presenting !== board) {
        const held = state.rooms[board];
        // Someone else leads it: only an explicit takeover starts presenting.
        if (held && !isMe(held.room) && !takeOver) return;
        store.setState({ presenting: board, following: null, away: false, notice: null });
      }
      waiting = {
        board,
        body: { ...move, ...(takeOver ? { take_over: true } : {}), ...(options.tab ? { tab: options.tab } : {}) },
      };
      pump();
    },
    endPresenting() {
      const board = store.getState().presenting;
      if (!board || !options.sender) return;
      waiting = null;
      store.setState({ presenting: null });
      // After any move on its way: an end overtaking it would let the move start the room again.
      const sender = options.sender;
      void (inFlight ?? Promise.resolve()).then(() => sender.end(board)).catch(() => undefined);
    },
    dismissNotice: () => store.setState({ notice: null }),
  };
}

/** A member's moves, over REST with their session. */
export function memberRoomSender(address: CanvasAddress): RoomSender {
  return {
    move: (board, body) => api.moveRoom(address, board, body),
    end: (board) => api.endRoom(address, board),
  };
}

/**
 * A share link's room stream for its guests (GET /api/v1/shared/{secret}/room): the rooms of the boards the link
 * shows. EventSource comes back by itself after a drop; a link that ended answers 404 and the stream stays closed.
 * Answers how to stop.
 */
export function followSharedRoom(
  secret: string,
  controller: RoomController,
  EventSourceClass: typeof EventSource = EventSource,
): () => void {
  const source = new EventSourceClass(`${api.sharedRoomUrl(secret)}?connection=${newKey()}`);
  source.onopen = () => controller.feed.connected();
  source.addEventListener('room', (message) =>
    controller.feed.room(JSON.parse((message as MessageEvent<string>).data) as RoomEvent),
  );
  return () => source.close();
}

/** The canvas page's room controller, for the screens under it (Present, the banner). */
export const RoomContext = createContext<RoomController | null>(null);

export function useRoomController(): RoomController | null {
  return useContext(RoomContext);
}

const NO_ROOMS = createStore<RoomData>(() => ({
  rooms: {},
  following: null,
  away: false,
  presenting: null,
  notice: null,
}));

/** What the room controller holds, for a screen (one without a controller reads an empty room). */
export function useRoomData<T>(controller: RoomController | null | undefined, selector: (data: RoomData) => T): T {
  return useStore(controller?.store ?? NO_ROOMS, selector);
}
