import { LAYOUT_EVENTS_CHANNEL } from '../layout-writes/index.js';
import { RUN_EVENTS_CHANNEL } from '../run-cancel.js';
import { STATES_EVENTS_CHANNEL } from '../run-store.js';
import { WEBHOOK_CHANNEL } from '../webhook-outbox.js';

/**
 * Where each signal goes on the feed bus (docs/scaling.md, "A fan-out bus: NATS"). A canvas's signals go to subjects
 * of their own, so a process hears only the canvases it has feeds or presence open for; signals that concern every
 * process (a run queued or cancelled, a webhook delivery due) go to one subject each that every process follows.
 *
 *   cmcp.layout.<project>.<canvas>     a layout revision committed: "<revision> <project>/<canvas>"
 *   cmcp.states.<project>.<canvas>     node states, exports, comments or review states changed: "<project>/<canvas>"
 *   cmcp.presence.<project>.<canvas>   who is on the canvas (src/backend/presence/presence.ts)
 *   cmcp.rooms                         review rooms (src/backend/review/review-rooms.ts): few, at a person's pace
 *   cmcp.runs                          "queued:<run>", "cancel:<run>"
 *   cmcp.webhooks                      "due"
 *
 * Ids are written as base64url: NATS subjects split on `.` and reserve `*`, `>` and whitespace, and a project id may
 * hold any letter; base64url's alphabet (A–Z, a–z, 0–9, `-`, `_`) is safe in a subject token and keeps ids distinct.
 */

export const SUBJECT_ROOT = 'cmcp';

export type CanvasSignalKind = 'layout' | 'states' | 'presence';

/** The kinds of message the bus counts (a metric label: a closed set). */
export const SIGNAL_KINDS = ['layout', 'states', 'presence', 'runs', 'webhooks', 'rooms'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

const token = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

export function canvasSubject(kind: CanvasSignalKind, projectId: string, canvasId: string): string {
  return `${SUBJECT_ROOT}.${kind}.${token(projectId)}.${token(canvasId)}`;
}

/** Every canvas's subjects of one kind (a process-wide listener of a canvas channel, which the feed does not use). */
export const everyCanvasSubject = (kind: CanvasSignalKind) => `${SUBJECT_ROOT}.${kind}.*.*`;

/** The kind of a subject of ours (for the metrics), from its second token. */
export function kindOfSubject(subject: string): SignalKind | null {
  const kind = subject.split('.', 2)[1];
  return (SIGNAL_KINDS as readonly string[]).includes(kind ?? '') ? (kind as SignalKind) : null;
}

/**
 * The review rooms' signals (src/backend/review/review-rooms.ts): a NOTIFY channel on PostgreSQL, one subject on the
 * bus that every process follows (a room moves at a person's pace, and a process must know a room before a move of it
 * reaches it).
 */
export const REVIEW_ROOM_CHANNEL = 'canvas_review_rooms';

/** `<project>/<canvas>` as the NOTIFY payloads write it (ids never hold a slash). */
function canvasOfPayload(ref: string): { projectId: string; canvasId: string } | null {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) return null;
  return { projectId: ref.slice(0, slash), canvasId: ref.slice(slash + 1) };
}

/**
 * The store's NOTIFY channels as bus subjects. `subjectOf` places one signal (its payload names the canvas);
 * `listenSubject` is what a process-wide listener of the channel follows. A channel not listed here stays on the
 * database's NOTIFY.
 */
export const CHANNEL_ROUTES: ReadonlyMap<string, { subjectOf(payload: string): string | null; listenSubject: string }> =
  new Map([
    [
      LAYOUT_EVENTS_CHANNEL,
      {
        subjectOf(payload: string) {
          const canvas = canvasOfPayload(payload.slice(payload.indexOf(' ') + 1));
          return canvas && canvasSubject('layout', canvas.projectId, canvas.canvasId);
        },
        listenSubject: everyCanvasSubject('layout'),
      },
    ],
    [
      STATES_EVENTS_CHANNEL,
      {
        subjectOf(payload: string) {
          const canvas = canvasOfPayload(payload);
          return canvas && canvasSubject('states', canvas.projectId, canvas.canvasId);
        },
        listenSubject: everyCanvasSubject('states'),
      },
    ],
    [RUN_EVENTS_CHANNEL, { subjectOf: () => `${SUBJECT_ROOT}.runs`, listenSubject: `${SUBJECT_ROOT}.runs` }],
    [WEBHOOK_CHANNEL, { subjectOf: () => `${SUBJECT_ROOT}.webhooks`, listenSubject: `${SUBJECT_ROOT}.webhooks` }],
    [REVIEW_ROOM_CHANNEL, { subjectOf: () => `${SUBJECT_ROOT}.rooms`, listenSubject: `${SUBJECT_ROOT}.rooms` }],
  ]);
