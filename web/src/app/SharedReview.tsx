import { useState, useSyncExternalStore } from 'react';
import type { CommentView, ShotMark, ThreadCreateBody, ThreadView } from '../../../src/contract/index.js';
import { api, ApiError } from '../model/api.js';
import { MarkupPad } from '../panels/review/MarkupPad.js';
import { ThreadItem, type ThreadActions } from '../panels/review/ThreadItem.js';

/**
 * A review link's comments (docs/review.md, "Guests on a link"): the threads of each board and shot the link shows;
 * with a link made for comments, a guest gives a name and comments as "Guest: <name>", replies, and edits or deletes
 * their own. The guest's token (and which comments are theirs) stays in this tab's sessionStorage, per link: nothing
 * else of the project is reachable with it.
 */

export interface Guest {
  guestId: string;
  name: string;
  token: string;
  /** The comments this guest wrote from this tab: theirs to edit or delete. */
  comments: string[];
}

const keyOf = (secret: string) => `canvas-mcp.guest.${secret}`;
const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; guest: Guest | null }>();

function readGuest(secret: string): Guest | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(keyOf(secret));
  } catch {
    // Storage refused (a private window's rules): the guest gives a name again.
  }
  const known = cache.get(secret);
  if (known && known.raw === raw) return known.guest;
  let guest: Guest | null;
  try {
    const parsed = raw ? (JSON.parse(raw) as Guest) : null;
    guest = parsed && typeof parsed.token === 'string' ? { ...parsed, comments: parsed.comments ?? [] } : null;
  } catch {
    guest = null;
  }
  cache.set(secret, { raw, guest });
  return guest;
}

function writeGuest(secret: string, guest: Guest | null): void {
  try {
    if (guest) sessionStorage.setItem(keyOf(secret), JSON.stringify(guest));
    else sessionStorage.removeItem(keyOf(secret));
  } catch {
    // Kept for this page only.
  }
  cache.set(secret, { raw: guest ? JSON.stringify(guest) : null, guest });
  listeners.forEach((listener) => listener());
}

export function useGuest(secret: string): Guest | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => readGuest(secret),
  );
}

/** The guest's newest comment in a thread a write of theirs answered with: theirs from now on. */
function remember(secret: string, guest: Guest, thread: ThreadView): void {
  const theirs = [...thread.comments]
    .reverse()
    .find(
      (comment) =>
        comment.author.kind === 'guest' &&
        comment.author.name === `Guest: ${guest.name}` &&
        !guest.comments.includes(comment.comment_id),
    );
  if (theirs) writeGuest(secret, { ...guest, comments: [...guest.comments, theirs.comment_id] });
}

/**
 * Starts a thread as the guest (theirs to edit from then on); answers null, or what went wrong. A token the server no
 * longer knows (the link was renewed) asks the guest for a name again.
 */
export async function startAsGuest(
  secret: string,
  guest: Guest,
  put: (thread: ThreadView) => void,
  body: ThreadCreateBody,
): Promise<string | null> {
  try {
    const thread = await api.guestStartThread(secret, guest.token, body);
    put(thread);
    remember(secret, guest, thread);
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) writeGuest(secret, null);
    return (error as Error).message;
  }
}

export function GuestName({ secret, guest }: { secret: string; guest: Guest | null }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  if (guest)
    return (
      <p className="guest-bar" data-guest={guest.guestId}>
        Commenting as <strong>Guest: {guest.name}</strong>{' '}
        <button type="button" className="button-small" onClick={() => writeGuest(secret, null)}>
          Not {guest.name}?
        </button>
      </p>
    );
  return (
    <form
      className="guest-bar"
      aria-label="Comment as a guest"
      onSubmit={(event) => {
        event.preventDefault();
        setProblem(null);
        api.joinAsGuest(secret, name.trim()).then(
          (joined) =>
            writeGuest(secret, { guestId: joined.guest_id, name: joined.name, token: joined.token, comments: [] }),
          (error: unknown) => setProblem((error as Error).message),
        );
      }}
    >
      <label>
        Your name, to comment{' '}
        <input value={name} maxLength={60} onChange={(event) => setName(event.target.value)} autoComplete="name" />
      </label>{' '}
      <button type="submit" className="button-primary button-small" disabled={!name.trim()}>
        Start commenting
      </button>
      <span className="muted"> Your comments show as "Guest: {name.trim() || 'your name'}".</span>
      {problem ? <p className="error-line">{problem}</p> : null}
    </form>
  );
}

export function GuestThreads({
  secret,
  guest,
  put,
  commenting,
  title,
  place,
  nodeId,
  shotId,
  threads,
  picture = null,
  aspect = 16 / 9,
}: {
  secret: string;
  guest: Guest | null;
  put: (thread: ThreadView) => void;
  commenting: boolean;
  title: string;
  /** "shot 4", "Opening": what the comment box is labelled with. */
  place: string;
  nodeId: string;
  shotId: string | null;
  threads: ThreadView[];
  /** The shot's picture to draw a note on, and the board's frame shape. */
  picture?: string | null;
  aspect?: number;
}) {
  const [body, setBody] = useState('');
  const [markup, setMarkup] = useState<ShotMark[]>([]);
  const [drawingNote, setDrawingNote] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const writing = commenting && guest !== null;
  const failed = (error: unknown) => {
    // A token the server no longer knows (the link was renewed): the guest gives a name again.
    if (error instanceof ApiError && error.status === 401) writeGuest(secret, null);
    setProblem((error as Error).message);
    return false;
  };
  const done = (thread: ThreadView) => {
    setProblem(null);
    put(thread);
    if (guest) remember(secret, guest, thread);
    return true;
  };
  const actionsFor = (thread: ThreadView): ThreadActions => ({
    mine: (comment: CommentView) => guest !== null && guest.comments.includes(comment.comment_id),
    markedFrame: (comment: CommentView) => api.sharedMarkedFrameUrl(secret, thread.thread_id, comment.comment_id),
    ...(writing
      ? {
          reply: (text: string) => api.guestReply(secret, guest.token, thread.thread_id, text).then(done, failed),
          change: (commentId: string, text: string | null) =>
            api.guestChangeComment(secret, guest.token, thread.thread_id, commentId, text).then(done, failed),
        }
      : {}),
  });
  if (threads.length === 0 && !writing) return null;
  return (
    <section className="shared-threads" aria-label={title}>
      {threads.length > 0 ? <h3 className="visually-hidden">{title}</h3> : null}
      {threads.map((thread) => (
        <ThreadItem
          key={thread.thread_id}
          thread={thread}
          actions={actionsFor(thread)}
          label={`Thread on ${place}: ${thread.comments[0]?.body.slice(0, 40) ?? ''}`}
        />
      ))}
      {writing ? (
        <form
          className="reply"
          onSubmit={(event) => {
            event.preventDefault();
            void startAsGuest(secret, guest, put, {
              node_id: nodeId,
              shot_id: shotId,
              anchor: null,
              body: body.trim(),
              ...(markup.length > 0 ? { markup } : {}),
            }).then((failure) => {
              setProblem(failure);
              if (failure) return;
              setBody('');
              setMarkup([]);
              setDrawingNote(false);
            });
          }}
        >
          <label className="visually-hidden" htmlFor={`guest-${nodeId}-${shotId ?? 'board'}`}>
            Comment on {place}
          </label>
          <textarea
            id={`guest-${nodeId}-${shotId ?? 'board'}`}
            rows={1}
            placeholder={`Comment on ${place}…`}
            value={body}
            onChange={(event) => setBody(event.target.value)}
          />
          <button type="submit" className="button-small" disabled={!body.trim()}>
            Comment
          </button>
          {shotId ? (
            <button
              type="button"
              className="button-small"
              aria-pressed={drawingNote}
              onClick={() => setDrawingNote(!drawingNote)}
            >
              {drawingNote ? 'Hide the drawing' : markup.length > 0 ? `Drawing (${markup.length})` : 'Draw on it'}
            </button>
          ) : null}
        </form>
      ) : null}
      {writing && drawingNote && shotId ? (
        <MarkupPad picture={picture} aspect={aspect} marks={markup} onChange={setMarkup} />
      ) : null}
      {problem ? <p className="error-line">{problem}</p> : null}
    </section>
  );
}
