import { describe, expect, it } from 'vitest';
import type { ReviewRoom, RoomMoveBody } from '../../src/contract/index.js';
import { roomOrder } from '../../src/shared/room-order.js';
import { ApiError } from '../src/model/api.js';
import { createRoomController, positionNow, type RoomSender } from '../src/model/review-room.js';

/** The review room as a page keeps it (docs/review.md, "The review room"), without a browser or a server. */

const ME = { issuer: 'canvas-mcp', subject: 'olga' };
const room = (seq: number, extra: Partial<ReviewRoom> = {}): ReviewRoom => ({
  room_id: 'room_1',
  board_node_id: 'board',
  presenter: { name: 'ana', issuer: 'canvas-mcp', subject: 'ana' },
  shot_id: 's1',
  shot_index: 0,
  playlist: null,
  playing: false,
  position_ms: 0,
  updated_at: '2026-11-28T10:00:00.000Z',
  seq,
  ...extra,
});

/** A sender whose answers the test gives, one request at a time. */
function heldSender() {
  const sent: Array<{ board: string; body: RoomMoveBody; answer(room: ReviewRoom): void; fail(error: Error): void }> =
    [];
  const ended: string[] = [];
  const sender: RoomSender = {
    move: (board, body) => new Promise((resolve, reject) => sent.push({ board, body, answer: resolve, fail: reject })),
    end: async (board) => {
      ended.push(board);
    },
  };
  return { sender, sent, ended };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the review room on a page', () => {
  it('steps through the playlist’s shots the board still has, in its order; every shot without one', () => {
    expect(roomOrder(['s1', 's2', 's3', 's4'], null)).toEqual(['s1', 's2', 's3', 's4']);
    expect(roomOrder(['s1', 's2', 's3', 's4'], ['s4', 'gone', 's1'])).toEqual(['s4', 's1']);
  });

  it('takes a room’s newer moves and ignores a late or repeated one; a new room replaces the old', () => {
    const rooms = createRoomController({ me: () => ME, sender: null });
    rooms.feed.room({ board_node_id: 'board', room: room(2, { shot_id: 's2' }) });
    rooms.feed.room({ board_node_id: 'board', room: room(1, { shot_id: 's1' }) });
    rooms.feed.room({ board_node_id: 'board', room: room(2, { shot_id: 's3' }) });
    expect(rooms.store.getState().rooms.board?.room.shot_id).toBe('s2');
    rooms.feed.room({ board_node_id: 'board', room: room(1, { room_id: 'room_2', shot_id: 's4' }) });
    expect(rooms.store.getState().rooms.board?.room.shot_id).toBe('s4');
    // A reconnected stream sends every room again: what it leaves out has ended.
    rooms.feed.connected();
    expect(rooms.store.getState().rooms).toEqual({});
  });

  it('runs a playing room’s position on from when it arrived, and holds a paused one', () => {
    const held = { room: room(1, { playing: true, position_ms: 4_000 }), receivedAt: 1_000 };
    expect(positionNow(held, 3_500)).toBe(6_500);
    expect(positionNow({ ...held, room: { ...held.room, playing: false } }, 3_500)).toBe(4_000);
  });

  it('follows, steps away and rejoins; the room’s end ends following and says who stopped', () => {
    const rooms = createRoomController({ me: () => ME, sender: null });
    rooms.feed.room({ board_node_id: 'board', room: room(1) });
    rooms.follow('board');
    rooms.stepAway();
    expect(rooms.store.getState()).toMatchObject({ following: 'board', away: true });
    rooms.rejoin();
    expect(rooms.store.getState().away).toBe(false);
    rooms.feed.room({ board_node_id: 'board', room: null, ended: 'presenter_left' });
    expect(rooms.store.getState()).toMatchObject({
      following: null,
      rooms: {},
      notice: 'ana left, so the room ended.',
    });
  });

  it('sends a presenter’s moves one at a time, the newest waiting, and ends after the move on its way', async () => {
    const { sender, sent, ended } = heldSender();
    const rooms = createRoomController({ me: () => ME, sender, tab: 'tab-of-olga' });
    const at = (shot: number) => ({ shot_id: `s${shot}`, shot_index: shot - 1, playing: false, position_ms: 0 });
    rooms.present('board', at(1));
    rooms.present('board', at(2));
    rooms.present('board', at(3));
    expect(sent.map((each) => each.body.shot_id)).toEqual(['s1']);
    expect(sent[0]!.body.tab).toBe('tab-of-olga');
    sent[0]!.answer(room(1, { presenter: { name: 'olga', ...ME } }));
    await settle();
    // The moves in between are never sent: the newest went once the first was answered.
    expect(sent.map((each) => each.body.shot_id)).toEqual(['s1', 's3']);
    rooms.endPresenting();
    await settle();
    expect(ended).toEqual([]);
    sent[1]!.answer(room(2, { presenter: { name: 'olga', ...ME } }));
    await settle();
    expect(ended).toEqual(['board']);
    expect(rooms.store.getState().presenting).toBeNull();
  });

  it('starts over another’s room only when told to take it over; a takeover of one’s own makes one a follower', async () => {
    const { sender, sent } = heldSender();
    const rooms = createRoomController({ me: () => ME, sender });
    rooms.feed.room({ board_node_id: 'board', room: room(3) });
    rooms.present('board', { shot_id: 's1', shot_index: 0, playing: false, position_ms: 0 });
    expect(sent).toEqual([]);
    rooms.present('board', { shot_id: 's1', shot_index: 0, playing: false, position_ms: 0 }, true);
    expect(sent[0]!.body.take_over).toBe(true);
    sent[0]!.answer(room(4, { presenter: { name: 'olga', ...ME } }));
    await settle();
    expect(rooms.store.getState().presenting).toBe('board');
    // Ana takes it back: Olga follows her from where the room is.
    rooms.feed.room({ board_node_id: 'board', room: room(5, { shot_id: 's2' }) });
    expect(rooms.store.getState()).toMatchObject({
      presenting: null,
      following: 'board',
      notice: 'ana took over the room.',
    });
  });

  it('stops presenting when the server says another member presents the board', async () => {
    const { sender, sent } = heldSender();
    const rooms = createRoomController({ me: () => ME, sender });
    rooms.present('board', { shot_id: 's1', shot_index: 0, playing: false, position_ms: 0 });
    sent[0]!.fail(
      new ApiError(403, 'forbidden', 'ana is presenting this board', {
        reason: 'presented_by_another',
        presenter: 'ana',
      }),
    );
    await settle();
    expect(rooms.store.getState()).toMatchObject({
      presenting: null,
      notice: 'ana is presenting this board: take it over to lead the room.',
    });
  });
});
