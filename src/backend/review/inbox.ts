import type { Inbox, Person } from '../../contract/index.js';
import { webCanvasPath } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { NewNotification, StoredNotification } from '../../store/review-store.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from '../auth/caller.js';
import type { Mailer } from '../team/mailer.js';
import { personOf } from './threads.js';

/**
 * Each person's inbox (docs/review.md, "Inbox and e-mail"): mentions, replies in threads they are in, approval requests
 * and decisions, newest first, with an unread count the home page and the canvas show. When the operator configured
 * SMTP (`--smtp-url`), each notification also goes by e-mail to a person who gave an address; it is never required.
 */

const INBOX_LIMIT = 100;

function notificationView(row: StoredNotification): Inbox['notifications'][number] {
  return {
    notification_id: row.id,
    kind: row.kind,
    project_id: row.project_id,
    canvas_id: row.canvas_id,
    thread_id: row.thread_id,
    node_id: row.node_id,
    shot_id: row.shot_id,
    from: row.from_name,
    summary: row.summary,
    created_at: new Date(row.created_at).toISOString(),
    read: row.read_at !== null,
  };
}

function requireSignedIn(ctx: CallerContext): Person {
  const person = personOf(ctx);
  if (!person) throw new CanvasError('forbidden', "An inbox is a person's: sign in to read yours.");
  return person;
}

export function createInboxOperations(store: Store) {
  return {
    async read(ctx: CallerContext): Promise<Inbox> {
      const person = requireSignedIn(ctx);
      const { unread, notifications } = await store.review.inbox(person, INBOX_LIMIT);
      return { unread, notifications: notifications.map(notificationView) };
    },

    async markRead(ctx: CallerContext, ids: readonly string[] | 'all'): Promise<Inbox> {
      const person = requireSignedIn(ctx);
      await store.review.markRead(person, ids);
      const { unread, notifications } = await store.review.inbox(person, INBOX_LIMIT);
      return { unread, notifications: notifications.map(notificationView) };
    },
  };
}

export type InboxOperations = ReturnType<typeof createInboxOperations>;

const SUBJECTS: Record<NewNotification['kind'], string> = {
  mention: 'You were mentioned',
  reply: 'A reply in a thread you are in',
  approval_request: 'Your approval is asked for',
  approval_decision: 'A review decision',
};

/**
 * Sends notifications by e-mail, after the change that made them committed; a failure is logged by the mailer
 * (without the address) and changes nothing else. Never waits the request: the inbox has them already.
 */
export function createReviewMail(
  store: Store,
  mailer: Mailer | null,
  publicOrigin: () => string,
  logger: Logger,
): (notifications: readonly NewNotification[]) => void {
  return (notifications) => {
    if (!mailer || notifications.length === 0) return;
    void (async () => {
      for (const notification of notifications) {
        const to = await store.emails.emailOf(notification.recipient);
        if (!to) continue;
        const link = `${publicOrigin()}${webCanvasPath(notification.projectId, notification.canvasId)}${notification.threadId ? `?thread=${encodeURIComponent(notification.threadId)}` : ''}`;
        await mailer.send({
          to,
          subject: `${SUBJECTS[notification.kind]}: ${notification.projectId}`,
          text: [
            notification.summary,
            '',
            `Open it: ${link}`,
            '',
            'You get this because you are a member of the project.',
          ].join('\n'),
        });
      }
    })().catch((error: unknown) => logger.warn({ err: error }, 'review e-mail failed'));
  };
}
