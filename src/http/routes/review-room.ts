import type { Hono } from 'hono';
import { ReviewRoom, RoomList, RoomMoveBody } from '../../contract/index.js';
import { authorizeProject, requireCanvas } from '../../backend/auth/access.js';
import type { ReviewRooms } from '../../backend/review/review-rooms.js';
import { requirePerson } from '../../backend/team/people-operations.js';
import type { Store } from '../../store/store.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, nodeParams, ok } from '../route-parameters.js';

/**
 * The review room (docs/review.md, "The review room"): a member presenting a board starts its room and moves it
 * (PUT), ends it (DELETE); the canvas's rooms now (GET). Followers hear it as the change feed's `room` events, a
 * review link's guests on the link's room stream (src/http/routes/shared-room.ts). Nothing is stored.
 */

const ROOM = `${CANVAS}/nodes/:node_id/room`;

const LIST = apiRoute({
  method: 'get',
  path: `${CANVAS}/rooms`,
  operationId: 'listReviewRooms',
  summary: "The canvas's review rooms now: who presents which board, at which shot, playing or not.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The rooms.', RoomList) },
});

const MOVE = apiRoute({
  method: 'put',
  path: ROOM,
  operationId: 'moveReviewRoom',
  summary:
    "Start presenting a board to everyone, or move the room (the shot, the playlist, play and pause): a signed-in member; only the room's presenter moves it, another member only with take_over.",
  tag: 'canvas',
  auth: 'caller',
  params: nodeParams,
  body: RoomMoveBody,
  responses: {
    200: ok('The room as it now is.', ReviewRoom),
    403: { description: 'Another member presents this board (details.presenter), and take_over was not said.' },
  },
});

const END = apiRoute({
  method: 'delete',
  path: ROOM,
  operationId: 'endReviewRoom',
  summary: 'End the room for everyone following it: its presenter only.',
  tag: 'canvas',
  auth: 'caller',
  params: nodeParams,
  responses: { 204: { description: 'Ended.' }, 404: { description: 'Nobody presents this board.' } },
});

export const REVIEW_ROOM_ROUTES = [LIST, MOVE, END];

export function registerReviewRoomRoutes(app: Hono<BackendHttpEnv>, options: { store: Store; rooms: ReviewRooms }) {
  /** A signed-in member of the project, on a canvas that exists. */
  async function member(c: BackendContext, params: { project_id: string; canvas_id: string }) {
    const caller = c.get('caller');
    const person = requirePerson(caller, 'present to a review room');
    await authorizeProject(options.store, caller, params.project_id, 'viewer');
    await requireCanvas(options.store, params.project_id, params.canvas_id);
    return person;
  }

  handle(app, LIST, async (c, input) => {
    const params = input.params();
    const caller = c.get('caller');
    await authorizeProject(options.store, caller, params.project_id, 'viewer');
    await requireCanvas(options.store, params.project_id, params.canvas_id);
    return c.json({ rooms: options.rooms.list(params.project_id, params.canvas_id) } satisfies RoomList);
  });

  handle(app, MOVE, async (c, input) => {
    const params = input.params();
    const person = await member(c, params);
    const room = await options.rooms.move(canvasRef(params), params.node_id, person, await input.body());
    return c.json(room);
  });

  handle(app, END, async (c, input) => {
    const params = input.params();
    const person = await member(c, params);
    await options.rooms.end(canvasRef(params), params.node_id, person);
    return c.body(null, 204);
  });
}
