import { z } from 'zod';
import { NodeId } from './identifiers.js';

/**
 * The review room (docs/review.md, "The review room"): a member presenting a board in Present leads everyone who
 * follows, members on the canvas and the guests of a review link showing that board, through the same shots, play and
 * pause. Kept in server memory per canvas and board, never stored; members hear it on the change feed as `room`
 * events, a link's guests on the link's own room stream (GET /api/v1/shared/{secret}/room), for its boards alone.
 */

const ShotId = z.string().min(1).max(200);

/** Shots in a session playlist at most; and the bytes their ids may take together (the room crosses processes whole). */
export const ROOM_PLAYLIST_MAX = 300;
export const ROOM_PLAYLIST_MAX_BYTES = 6_000;
/** The longest animatic position a room carries: a day. */
const POSITION_MAX_MS = 86_400_000;

export const RoomPresenter = z
  .strictObject({
    name: z.string().meta({ description: 'Members see the sign-in subject; guests see "Team member".' }),
    issuer: z.string().nullable().meta({ description: 'null for guests.' }),
    subject: z.string().nullable().meta({ description: 'null for guests.' }),
  })
  .meta({ id: 'RoomPresenter' });
export type RoomPresenter = z.infer<typeof RoomPresenter>;

export const ReviewRoom = z
  .strictObject({
    room_id: z.string().meta({ description: 'One per room started; a takeover keeps it.' }),
    board_node_id: NodeId,
    presenter: RoomPresenter,
    shot_id: ShotId.meta({ description: 'The shot the presenter shows.' }),
    shot_index: z.int().min(0).meta({ description: "The shot's place in the playlist (or the board), from 0." }),
    playlist: z
      .array(ShotId)
      .nullable()
      .meta({ description: "Today's shots, in order; null: every shot of the board, in the board's order." }),
    playing: z.boolean().meta({ description: 'The presenter plays (the animatic, or the shots at their durations).' }),
    position_ms: z
      .int()
      .min(0)
      .meta({ description: "Where the board's animatic was at updated_at; while playing it has moved on since." }),
    updated_at: z.string().meta({ description: 'When the presenter last moved the room (ISO 8601).' }),
    seq: z.int().min(1).meta({ description: "The room's count of moves: a follower ignores one not above the last." }),
  })
  .meta({ id: 'ReviewRoom' });
export type ReviewRoom = z.infer<typeof ReviewRoom>;

/** Why a room ended: its presenter ended it, or left (closed the page, or stopped reporting for 30 s). */
export const RoomEndReason = z.enum(['ended', 'presenter_left']);
export type RoomEndReason = z.infer<typeof RoomEndReason>;

/** The `room` event: a board's room as it now is, or null once it ended (with why). */
export const RoomEvent = z
  .strictObject({
    board_node_id: NodeId,
    room: ReviewRoom.nullable(),
    ended: RoomEndReason.optional(),
  })
  .meta({ id: 'RoomEvent' });
export type RoomEvent = z.infer<typeof RoomEvent>;

/** What the presenter's page sends to start the room or move it (PUT …/boards/{node_id}/room). */
export const RoomMoveBody = z
  .strictObject({
    shot_id: ShotId,
    shot_index: z.int().min(0).max(10_000),
    playlist: z
      .array(ShotId)
      .min(1, { error: 'is empty: pick at least one shot, or send null for every shot' })
      .max(ROOM_PLAYLIST_MAX)
      .nullable()
      .optional()
      .meta({ description: 'Omitted: as it was (every shot when the room starts); null: every shot.' }),
    playing: z.boolean(),
    position_ms: z.int().min(0).max(POSITION_MAX_MS),
    take_over: z
      .boolean()
      .optional()
      .meta({ description: 'true: become the presenter of a room another member leads.' }),
    tab: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'must be 8 to 64 letters, digits, - or _' })
      .optional()
      .meta({ description: "The presenting page's tab, as its presence reports name it: its leaving ends the room." }),
  })
  .meta({ id: 'RoomMoveBody' });
export type RoomMoveBody = z.infer<typeof RoomMoveBody>;

/** The rooms of a canvas now (GET …/rooms). */
export const RoomList = z.strictObject({ rooms: z.array(ReviewRoom) }).meta({ id: 'RoomList' });
export type RoomList = z.infer<typeof RoomList>;
