import { useCallback, useEffect, useRef, useState } from 'react';
import { BellIcon } from '../ui/icons.js';
import type { Inbox as InboxView, NotificationView } from '../../../src/contract/index.js';
import { api } from '../model/api.js';
import { when } from '../model/review.js';
import { canvasHref, navigate } from './router.js';

/**
 * A person's inbox (docs/review.md, "Inbox and e-mail"): "Inbox (N)" in the canvas's top bar and on the home page, N
 * unread; opened, the notifications (mentions, replies, approval requests and decisions) newest first, unread in bold.
 * One opens its canvas on its thread; "Mark all read" clears the count. Read every few seconds (a mention can come from
 * any canvas).
 */

const POLL_MS = 5000;

export function canvasLinkOf(notification: NotificationView): string {
  const href = canvasHref(notification.project_id, notification.canvas_id);
  return notification.thread_id ? `${href}?thread=${encodeURIComponent(notification.thread_id)}` : href;
}

export function Inbox({
  openHere,
}: {
  /** Opens a notification of the canvas already on screen without leaving it; answers false for another canvas. */
  openHere?: (notification: NotificationView) => boolean;
}) {
  const [inbox, setInbox] = useState<InboxView | null>(null);
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const load = useCallback(async () => {
    try {
      setInbox(await api.inbox());
    } catch {
      // Signed out or away: the next read tries again.
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);
  useEffect(() => {
    if (!open) return;
    void load();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    const onClick = (event: MouseEvent) => {
      if (panel.current && !panel.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open, load]);

  const unread = inbox?.unread ?? 0;
  const choose = async (notification: NotificationView) => {
    if (!notification.read) await api.markRead([notification.notification_id]).catch(() => undefined);
    setOpen(false);
    void load();
    if (!openHere?.(notification)) navigate(canvasLinkOf(notification));
  };
  return (
    <div className="inbox" ref={panel}>
      <button
        type="button"
        className={unread > 0 ? 'button-small inbox-button inbox-unread' : 'button-small inbox-button'}
        aria-expanded={open}
        aria-haspopup="true"
        aria-label={unread > 0 ? `Inbox, ${unread} unread` : 'Inbox'}
        onClick={() => setOpen((now) => !now)}
      >
        <BellIcon /> Inbox{unread > 0 ? ` (${unread})` : ''}
      </button>
      {open ? (
        <section className="inbox-panel" aria-label="Inbox notifications">
          <header className="inbox-head">
            <h2>Inbox</h2>
            <span className="muted">{unread} unread</span>
            <button
              type="button"
              className="button-small"
              disabled={unread === 0}
              onClick={() => void api.markRead('all').then(load, load)}
            >
              Mark all read
            </button>
          </header>
          {inbox && inbox.notifications.length > 0 ? (
            <ul className="inbox-list">
              {inbox.notifications.map((notification) => (
                <li key={notification.notification_id}>
                  <a
                    href={canvasLinkOf(notification)}
                    className={notification.read ? 'inbox-item' : 'inbox-item inbox-item-unread'}
                    data-notification={notification.notification_id}
                    data-kind={notification.kind}
                    onClick={(event) => {
                      event.preventDefault();
                      void choose(notification);
                    }}
                  >
                    <span className="inbox-summary">
                      {notification.read ? null : <span className="visually-hidden">Unread: </span>}
                      {notification.summary}
                    </span>
                    <span className="muted inbox-meta">
                      from {notification.from} · {notification.project_id} / {notification.canvas_id} ·{' '}
                      {when(notification.created_at)}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nothing yet: mentions, replies and approval requests arrive here.</p>
          )}
        </section>
      ) : null}
    </div>
  );
}
