import { useState } from 'react';
import type { CommentView, ThreadView } from '../../../../src/contract/index.js';
import { anchorTimeText, when } from '../../model/review.js';

/**
 * One comment thread: where it is, its comments (author, time, "edited", "Comment deleted"), a reply box,
 * Resolve or Reopen, and edit or delete on one's own comments. Bodies are plain text: React text, never HTML. Shared
 * by the canvas's Comments panel and a review link's page (where guests write).
 */

export interface ThreadActions {
  reply?(body: string): Promise<boolean>;
  setStatus?(status: 'open' | 'resolved'): Promise<void>;
  /** A new body for one's own comment; null deletes it. */
  change?(commentId: string, body: string | null): Promise<boolean>;
  mine(comment: CommentView): boolean;
  /** Where a comment's drawn note is drawn over its frame (a PNG), when it has one. */
  markedFrame?(comment: CommentView): string;
}

/** Where a thread points, in words: "Opening, shot 4 · at 00:12 of the animatic · pinned". */
export function threadPlace(thread: ThreadView): string {
  const place =
    thread.node_id === null
      ? 'Canvas'
      : thread.node_deleted
        ? `${thread.node_label}, on a deleted node`
        : thread.node_label;
  const anchor = thread.anchor;
  const extras: string[] = [];
  const time = anchor ? anchorTimeText(anchor) : null;
  if (time !== null)
    extras.push(
      `at ${time}${anchor?.on === 'animatic' ? ' of the animatic' : anchor?.on === 'film' ? ' of the film' : ''}`,
    );
  if (anchor?.x !== undefined && anchor.y !== undefined)
    extras.push(`pinned at ${Math.round(anchor.x * 100)}% across, ${Math.round(anchor.y * 100)}% down`);
  // Guests of review links see only the client's threads: say which ones they are.
  if (thread.audience === 'client') extras.push('shared with the client');
  return [place, ...extras].join(' · ');
}

export function ThreadItem({
  thread,
  actions,
  focused = false,
  label,
}: {
  thread: ThreadView;
  actions: ThreadActions;
  focused?: boolean;
  /** The thread's accessible name; its place by default. */
  label?: string;
}) {
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  const first = thread.comments[0];
  const name =
    label ?? `Thread on ${threadPlace(thread)}${first && !first.deleted ? `: ${first.body.slice(0, 40)}` : ''}`;
  return (
    <article
      className={`thread${thread.status === 'resolved' ? ' thread-resolved' : ''}${focused ? ' thread-focused' : ''}`}
      data-thread={thread.thread_id}
      data-status={thread.status}
      aria-label={name}
    >
      <header className="thread-head">
        <span className="thread-place">{threadPlace(thread)}</span>
        {thread.status === 'resolved' ? <span className="chip">Resolved</span> : null}
        {actions.setStatus ? (
          <button
            type="button"
            className="button-small"
            onClick={() => void actions.setStatus!(thread.status === 'open' ? 'resolved' : 'open')}
          >
            {thread.status === 'open' ? 'Resolve' : 'Reopen'}
          </button>
        ) : null}
      </header>
      <ol className="comments">
        {thread.comments.map((comment) => (
          <CommentItem key={comment.comment_id} comment={comment} actions={actions} />
        ))}
      </ol>
      {actions.reply ? (
        <form
          className="reply"
          onSubmit={(event) => {
            event.preventDefault();
            if (!reply.trim() || busy) return;
            setBusy(true);
            void actions.reply!(reply.trim()).then((done) => {
              setBusy(false);
              if (done) setReply('');
            });
          }}
        >
          <label className="visually-hidden" htmlFor={`reply-${thread.thread_id}`}>
            Reply to the thread on {threadPlace(thread)}
          </label>
          <textarea
            id={`reply-${thread.thread_id}`}
            rows={1}
            placeholder="Reply…"
            value={reply}
            onChange={(event) => setReply(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) event.currentTarget.form?.requestSubmit();
            }}
          />
          <button type="submit" className="button-small" disabled={!reply.trim() || busy}>
            Reply
          </button>
        </form>
      ) : null}
    </article>
  );
}

function CommentItem({ comment, actions }: { comment: CommentView; actions: ThreadActions }) {
  const [editing, setEditing] = useState<string | null>(null);
  const own = !comment.deleted && actions.mine(comment) && actions.change !== undefined;
  return (
    <li className="comment" data-comment={comment.comment_id}>
      <div className="comment-meta">
        <strong className={`comment-author comment-author-${comment.author.kind}`}>{comment.author.name}</strong>
        <time dateTime={comment.created_at} className="muted">
          {when(comment.created_at)}
        </time>
        {comment.edited_at && !comment.deleted ? <span className="muted">edited</span> : null}
      </div>
      {comment.deleted ? (
        <p className="comment-body comment-deleted muted">Comment deleted</p>
      ) : editing !== null ? (
        <form
          className="reply"
          onSubmit={(event) => {
            event.preventDefault();
            if (!editing.trim()) return;
            void actions.change!(comment.comment_id, editing.trim()).then((done) => {
              if (done) setEditing(null);
            });
          }}
        >
          <label className="visually-hidden" htmlFor={`edit-${comment.comment_id}`}>
            Edit your comment
          </label>
          <textarea
            id={`edit-${comment.comment_id}`}
            rows={2}
            value={editing}
            onChange={(event) => setEditing(event.target.value)}
          />
          <button type="submit" className="button-small">
            Save
          </button>
          <button type="button" className="button-small" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      ) : (
        <p className="comment-body">{comment.body}</p>
      )}
      {!comment.deleted && comment.markup.length > 0 && actions.markedFrame ? (
        <figure className="comment-markup" data-markup={comment.markup.length}>
          <a href={actions.markedFrame(comment)} target="_blank" rel="noopener">
            <img
              src={actions.markedFrame(comment)}
              alt={`The frame with ${comment.author.name}'s drawn note (${comment.markup.length} mark${comment.markup.length === 1 ? '' : 's'})`}
              loading="lazy"
            />
          </a>
          <figcaption>
            <a href={actions.markedFrame(comment)} download="marked-frame.png">
              Save the marked-up frame
            </a>
          </figcaption>
        </figure>
      ) : null}
      {own && editing === null ? (
        <div className="comment-actions">
          <button type="button" className="button-small" onClick={() => setEditing(comment.body)}>
            Edit
          </button>
          <button type="button" className="button-small" onClick={() => void actions.change!(comment.comment_id, null)}>
            Delete
          </button>
        </div>
      ) : null}
    </li>
  );
}
