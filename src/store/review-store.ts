import { z } from 'zod';
import { CommentMarkup, type Person, type ShotMark } from '../contract/index.js';
import { parseRows } from './records.js';
import { insertRow } from './row-statements.js';
import { bumpStatesVersion } from './run-store.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import { emitReviewEvent } from './webhook-outbox.js';

/** A webhook event a review change makes, enqueued in its transaction (after the canvas row is locked). */
export interface ReviewEvent {
  type: 'comment.created' | 'comment.resolved' | 'review.changed';
  data: Record<string, unknown>;
}

/**
 * Comment threads, review states, inboxes and review guests (migrations/030_review.sql). A thread or comment change
 * moves the canvas's states_version (never its revision), so every process's change feed hears of it.
 */

const CanvasIdRow = z.object({ id: z.string() });

const ThreadRow = z.object({
  id: z.string(),
  project_id: z.string(),
  canvas_id: z.string(),
  node_id: z.string().nullable(),
  shot_id: z.string().nullable(),
  anchor: z.string().nullable(),
  node_label: z.string(),
  status: z.enum(['open', 'resolved']),
  created_at: z.coerce.number(),
  updated_at: z.coerce.number(),
  resolved_by: z.string().nullable(),
  resolved_at: z.coerce.number().nullable(),
  assistant_conversations: z.string(),
  audience: z.enum(['team', 'client']),
});
export type StoredThread = z.infer<typeof ThreadRow>;

const CommentRow = z.object({
  id: z.string(),
  thread_id: z.string(),
  author_kind: z.enum(['person', 'guest', 'assistant', 'agent']),
  author_issuer: z.string().nullable(),
  author_subject: z.string().nullable(),
  author_name: z.string(),
  guest_id: z.string().nullable(),
  body: z.string(),
  mentions: z.string(),
  /** A drawn note's marks, kept as JSON (migrations/034_comment_markup.sql); none is an empty list. */
  markup: z
    .string()
    .nullable()
    .transform((text) => (text === null ? [] : CommentMarkup.parse(JSON.parse(text)))),
  created_at: z.coerce.number(),
  edited_at: z.coerce.number().nullable(),
  deleted_at: z.coerce.number().nullable(),
});
export type StoredComment = z.infer<typeof CommentRow>;

const StateRow = z.object({
  node_id: z.string(),
  shot_id: z.string(),
  state: z.enum(['draft', 'in_review', 'changes_requested', 'approved']),
  fingerprint: z.string().nullable(),
  approved_revision: z.coerce.number().nullable(),
  decided_by: z.string().nullable(),
  decided_at: z.coerce.number().nullable(),
  requested_by: z.string().nullable(),
});
export type StoredReviewState = z.infer<typeof StateRow>;

const NotificationRow = z.object({
  id: z.string(),
  project_id: z.string(),
  canvas_id: z.string(),
  kind: z.enum(['mention', 'reply', 'approval_request', 'approval_decision']),
  thread_id: z.string().nullable(),
  node_id: z.string().nullable(),
  shot_id: z.string().nullable(),
  from_name: z.string(),
  summary: z.string(),
  created_at: z.coerce.number(),
  read_at: z.coerce.number().nullable(),
});
export type StoredNotification = z.infer<typeof NotificationRow>;

const GuestRow = z.object({ id: z.string(), share_id: z.string(), name: z.string(), created_at: z.coerce.number() });
export type StoredGuest = z.infer<typeof GuestRow>;

const THREAD_COLUMNS =
  'id, project_id, canvas_id, node_id, shot_id, anchor, node_label, status, created_at, updated_at, resolved_by, resolved_at, assistant_conversations, audience';
const COMMENT_COLUMNS =
  'id, thread_id, author_kind, author_issuer, author_subject, author_name, guest_id, body, mentions, markup, created_at, edited_at, deleted_at';
const NOTIFICATION_COLUMNS =
  'id, project_id, canvas_id, kind, thread_id, node_id, shot_id, from_name, summary, created_at, read_at';

/** Threads a canvas lists at most (newest activity first), and comments a thread shows. */
export const MAX_THREADS_LISTED = 500;
export const MAX_COMMENTS_PER_THREAD = 500;

export interface NewComment {
  id: string;
  authorKind: StoredComment['author_kind'];
  author: Person | null;
  authorName: string;
  guestId: string | null;
  body: string;
  mentions: string[];
  /** A drawn note on the thread's frame; none when absent. */
  markup?: readonly ShotMark[];
}

export interface NewNotification {
  id: string;
  recipient: Person;
  projectId: string;
  canvasId: string;
  kind: StoredNotification['kind'];
  threadId: string | null;
  nodeId: string | null;
  shotId: string | null;
  fromName: string;
  summary: string;
}

function commentRow(
  tx: SqlExecutor,
  threadId: string,
  ref: { projectId: string; canvasId: string },
  comment: NewComment,
  at: number,
) {
  return insertRow(tx, 'comments', {
    id: comment.id,
    thread_id: threadId,
    project_id: ref.projectId,
    canvas_id: ref.canvasId,
    author_kind: comment.authorKind,
    author_issuer: comment.author?.issuer ?? null,
    author_subject: comment.author?.subject ?? null,
    author_name: comment.authorName,
    guest_id: comment.guestId,
    body: comment.body,
    mentions: JSON.stringify(comment.mentions),
    markup: comment.markup?.length ? JSON.stringify(comment.markup) : null,
    created_at: at,
  });
}

async function insertNotifications(tx: SqlExecutor, notifications: readonly NewNotification[], at: number) {
  for (const n of notifications)
    await insertRow(tx, 'notifications', {
      id: n.id,
      recipient_issuer: n.recipient.issuer,
      recipient_subject: n.recipient.subject,
      project_id: n.projectId,
      canvas_id: n.canvasId,
      kind: n.kind,
      thread_id: n.threadId,
      node_id: n.nodeId,
      shot_id: n.shotId,
      from_name: n.fromName,
      summary: n.summary,
      created_at: at,
    });
}

export function createReviewStore(driver: SqlDriver, clock: () => number) {
  /** First in each transaction: locks the canvas row (webhook events are ordered by it) and tells open pages. */
  async function touch(
    tx: SqlExecutor,
    projectId: string,
    canvasId: string,
    events: readonly ReviewEvent[],
    now: number,
  ): Promise<void> {
    await bumpStatesVersion(driver, tx, projectId, canvasId);
    for (const event of events) await emitReviewEvent(driver, tx, { projectId, canvasId, ...event, now });
  }

  async function commentsOf(threadIds: readonly string[]): Promise<Map<string, StoredComment[]>> {
    const byThread = new Map<string, StoredComment[]>(threadIds.map((id) => [id, []]));
    // In slices: a canvas's threads are at most MAX_THREADS_LISTED, well within any parameter limit per slice.
    for (let start = 0; start < threadIds.length; start += 100) {
      const slice = threadIds.slice(start, start + 100);
      const rows = await driver.all(
        `SELECT ${COMMENT_COLUMNS} FROM comments WHERE thread_id IN (${slice.map(() => '?').join(', ')}) ORDER BY created_at, id`,
        slice,
      );
      for (const row of parseRows(CommentRow, rows)) {
        const list = byThread.get(row.thread_id)!;
        if (list.length < MAX_COMMENTS_PER_THREAD) list.push(row);
      }
    }
    return byThread;
  }

  return {
    /** A new thread with its first comment, and the notifications it makes, in one transaction. */
    async createThread(
      thread: {
        id: string;
        projectId: string;
        canvasId: string;
        nodeId: string | null;
        shotId: string | null;
        anchor: string | null;
        nodeLabel: string;
        audience: 'team' | 'client';
      },
      first: NewComment,
      notifications: readonly NewNotification[],
      events: readonly ReviewEvent[] = [],
    ): Promise<void> {
      const at = clock();
      await driver.transaction(async (tx) => {
        await touch(tx, thread.projectId, thread.canvasId, events, at);
        await insertRow(tx, 'comment_threads', {
          id: thread.id,
          project_id: thread.projectId,
          canvas_id: thread.canvasId,
          node_id: thread.nodeId,
          shot_id: thread.shotId,
          anchor: thread.anchor,
          node_label: thread.nodeLabel,
          audience: thread.audience,
          status: 'open',
          created_at: at,
          updated_at: at,
        });
        await commentRow(tx, thread.id, thread, first, at);
        await insertNotifications(tx, notifications, at);
      });
    },

    async addComment(
      thread: StoredThread,
      comment: NewComment,
      notifications: readonly NewNotification[],
      events: readonly ReviewEvent[] = [],
    ) {
      const at = clock();
      await driver.transaction(async (tx) => {
        await touch(tx, thread.project_id, thread.canvas_id, events, at);
        await commentRow(tx, thread.id, { projectId: thread.project_id, canvasId: thread.canvas_id }, comment, at);
        await tx.run('UPDATE comment_threads SET updated_at = ? WHERE id = ?', [at, thread.id]);
        await insertNotifications(tx, notifications, at);
      });
    },

    /** Edits (a new body) or deletes (body null) a comment; its thread moves on. */
    async changeComment(thread: StoredThread, commentId: string, body: string | null): Promise<void> {
      const at = clock();
      await driver.transaction(async (tx) => {
        await touch(tx, thread.project_id, thread.canvas_id, [], at);
        if (body === null)
          await tx.run("UPDATE comments SET body = '', mentions = '[]', deleted_at = ? WHERE id = ?", [at, commentId]);
        else await tx.run('UPDATE comments SET body = ?, edited_at = ? WHERE id = ?', [body, at, commentId]);
        await tx.run('UPDATE comment_threads SET updated_at = ? WHERE id = ?', [at, thread.id]);
      });
    },

    async setThreadStatus(
      thread: StoredThread,
      status: 'open' | 'resolved',
      by: string,
      events: readonly ReviewEvent[] = [],
    ): Promise<void> {
      const at = clock();
      await driver.transaction(async (tx) => {
        await touch(tx, thread.project_id, thread.canvas_id, events, at);
        await tx.run(
          'UPDATE comment_threads SET status = ?, resolved_by = ?, resolved_at = ?, updated_at = ? WHERE id = ?',
          [status, status === 'resolved' ? by : null, status === 'resolved' ? at : null, at, thread.id],
        );
      });
    },

    /** Remembers the assistant's conversation for a person in this thread (its next mention goes on there). */
    async setAssistantConversations(threadId: string, conversations: Record<string, string>): Promise<void> {
      await driver.run('UPDATE comment_threads SET assistant_conversations = ? WHERE id = ?', [
        JSON.stringify(conversations),
        threadId,
      ]);
    },

    async thread(projectId: string, canvasId: string, threadId: string): Promise<StoredThread | undefined> {
      const row = await driver.get(
        `SELECT ${THREAD_COLUMNS} FROM comment_threads WHERE id = ? AND project_id = ? AND canvas_id = ?`,
        [threadId, projectId, canvasId],
      );
      return row ? ThreadRow.parse(row) : undefined;
    },

    async comment(threadId: string, commentId: string): Promise<StoredComment | undefined> {
      const row = await driver.get(`SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = ? AND thread_id = ?`, [
        commentId,
        threadId,
      ]);
      return row ? CommentRow.parse(row) : undefined;
    },

    /** A canvas's threads with their comments, latest activity first (at most MAX_THREADS_LISTED). */
    async threads(
      projectId: string,
      canvasId: string,
      options: { nodeIds?: readonly string[] | null; threadIds?: readonly string[] } = {},
    ): Promise<Array<{ thread: StoredThread; comments: StoredComment[] }>> {
      const rows = parseRows(
        ThreadRow,
        await driver.all(
          `SELECT ${THREAD_COLUMNS} FROM comment_threads WHERE project_id = ? AND canvas_id = ? ORDER BY updated_at DESC, id DESC LIMIT ?`,
          [projectId, canvasId, MAX_THREADS_LISTED],
        ),
      ).filter(
        (thread) =>
          (!options.nodeIds || (thread.node_id !== null && options.nodeIds.includes(thread.node_id))) &&
          (!options.threadIds || options.threadIds.includes(thread.id)),
      );
      const comments = await commentsOf(rows.map((thread) => thread.id));
      return rows.map((thread) => ({ thread, comments: comments.get(thread.id)! }));
    },

    async reviewStates(projectId: string, canvasId: string): Promise<StoredReviewState[]> {
      return parseRows(
        StateRow,
        await driver.all(
          'SELECT node_id, shot_id, state, fingerprint, approved_revision, decided_by, decided_at, requested_by FROM review_states WHERE project_id = ? AND canvas_id = ?',
          [projectId, canvasId],
        ),
      );
    },

    /** Sets a board's or shot's state, with the notifications it makes; the canvas's pages hear of it. */
    async setReviewState(
      ref: { projectId: string; canvasId: string },
      state: Omit<StoredReviewState, 'decided_at'>,
      notifications: readonly NewNotification[],
      events: readonly ReviewEvent[] = [],
    ): Promise<void> {
      const at = clock();
      await driver.transaction(async (tx) => {
        await touch(tx, ref.projectId, ref.canvasId, events, at);
        await insertRow(
          tx,
          'review_states',
          {
            project_id: ref.projectId,
            canvas_id: ref.canvasId,
            node_id: state.node_id,
            shot_id: state.shot_id,
            state: state.state,
            fingerprint: state.fingerprint,
            approved_revision: state.approved_revision,
            decided_by: state.decided_by,
            decided_at: at,
            requested_by: state.requested_by,
          },
          `ON CONFLICT (project_id, canvas_id, node_id, shot_id) DO UPDATE SET state = excluded.state,
             fingerprint = excluded.fingerprint, approved_revision = excluded.approved_revision,
             decided_by = excluded.decided_by, decided_at = excluded.decided_at, requested_by = excluded.requested_by`,
        );
        await insertNotifications(tx, notifications, at);
      });
    },

    async notify(notifications: readonly NewNotification[]): Promise<void> {
      if (notifications.length === 0) return;
      await driver.transaction((tx) => insertNotifications(tx, notifications, clock()));
    },

    async inbox(person: Person, limit: number): Promise<{ unread: number; notifications: StoredNotification[] }> {
      const rows = await driver.all(
        `SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE recipient_issuer = ? AND recipient_subject = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
        [person.issuer, person.subject, limit],
      );
      const unread = await driver.get(
        'SELECT COUNT(*) AS unread FROM notifications WHERE recipient_issuer = ? AND recipient_subject = ? AND read_at IS NULL',
        [person.issuer, person.subject],
      );
      return { unread: Number(unread?.unread ?? 0), notifications: parseRows(NotificationRow, rows) };
    },

    async markRead(person: Person, ids: readonly string[] | 'all'): Promise<void> {
      const at = clock();
      if (ids === 'all') {
        await driver.run(
          'UPDATE notifications SET read_at = ? WHERE recipient_issuer = ? AND recipient_subject = ? AND read_at IS NULL',
          [at, person.issuer, person.subject],
        );
        return;
      }
      await driver.run(
        `UPDATE notifications SET read_at = ? WHERE recipient_issuer = ? AND recipient_subject = ? AND read_at IS NULL AND id IN (${ids.map(() => '?').join(', ')})`,
        [at, person.issuer, person.subject, ...ids],
      );
    },

    async editorsApprove(projectId: string): Promise<boolean> {
      const row = await driver.get('SELECT editors_approve FROM projects WHERE id = ?', [projectId]);
      return Number(row?.editors_approve ?? 0) === 1;
    },

    /**
     * The owners' choice, and every canvas of the project moves its states_version in the same transaction: pages open
     * on any of them hear the setting at once (their `review` event carries it). Answers those canvases' ids.
     */
    async setEditorsApprove(projectId: string, allowed: boolean): Promise<string[]> {
      return driver.transaction(async (tx) => {
        await tx.run('UPDATE projects SET editors_approve = ? WHERE id = ?', [allowed ? 1 : 0, projectId]);
        const canvasIds = parseRows(
          CanvasIdRow,
          await tx.all('SELECT id FROM canvases WHERE project_id = ? AND deleted_at IS NULL ORDER BY id', [projectId]),
        ).map((row) => row.id);
        for (const canvasId of canvasIds) await bumpStatesVersion(driver, tx, projectId, canvasId);
        return canvasIds;
      });
    },

    async addGuest(guest: { id: string; shareId: string; name: string; secretHash: string }): Promise<StoredGuest> {
      const at = clock();
      await insertRow(driver, 'review_guests', {
        id: guest.id,
        share_id: guest.shareId,
        name: guest.name,
        secret_hash: guest.secretHash,
        created_at: at,
      });
      return { id: guest.id, share_id: guest.shareId, name: guest.name, created_at: at };
    },

    async guestBySecretHash(secretHash: string): Promise<StoredGuest | undefined> {
      const row = await driver.get('SELECT id, share_id, name, created_at FROM review_guests WHERE secret_hash = ?', [
        secretHash,
      ]);
      return row ? GuestRow.parse(row) : undefined;
    },
  };
}

export type ReviewStore = ReturnType<typeof createReviewStore>;
