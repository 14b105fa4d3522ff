import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CommentAnchor, FrameRate, MemberView, ReviewStateView, ThreadView } from '../../../src/contract/index.js';
import { frameOfTimecode } from '../../../src/shared/timecode.js';
import { api, type CanvasAddress } from './api.js';
import type { ReviewFeedListener } from './transport.js';

// A thread's time and frames as people read them, shared with the PDF's notes pages.
export { anchorTimeText, filmTimecode, formatTimecode } from '../../../src/shared/anchor-time.js';

/**
 * Review on an open canvas (docs/review.md): its comment threads and the review states of its boards and
 * shots, read once over REST and kept live by the change feed's `comment` and `review` events (a thread arrives whole
 * whenever it changes; the states arrive all at once). Plain TypeScript beside the canvas controller: cards, the shot
 * list and the Comments panel read it; only the web canvas provides it (the MCP App shows no review).
 */

export interface ReviewData {
  threads: Record<string, ThreadView>;
  states: ReviewStateView[];
  editorsApprove: boolean;
  members: MemberView[];
  /** A pin being placed: the next click on the node's picture (or the panel's copy of it) sets the point. */
  pinning: { nodeId: string; shotId: string | null } | null;
  /** The point chosen for the thread being started. */
  pin: { nodeId: string; shotId: string | null; anchor: CommentAnchor } | null;
  /** The thread the page was opened on (from the inbox): shown first, highlighted. */
  focus: string | null;
  /** Where a new thread goes, as chosen elsewhere (a shot list row's Comment button). */
  compose: { nodeId: string | null; shotId: string | null } | null;
}

export interface ReviewController {
  store: StoreApi<ReviewData>;
  feed: ReviewFeedListener;
  load(): Promise<void>;
  /** Takes in a thread a write answered with, at once (its feed event follows and changes nothing). */
  put(thread: ThreadView): void;
}

export function createReviewController(address: CanvasAddress, focus: string | null = null): ReviewController {
  const store = createStore<ReviewData>(() => ({
    threads: {},
    states: [],
    editorsApprove: false,
    members: [],
    pinning: null,
    pin: null,
    focus,
    compose: null,
  }));
  const put = (thread: ThreadView) =>
    store.setState((current) => {
      const known = current.threads[thread.thread_id];
      // A late answer never replaces a newer view of the same thread.
      if (known && known.updated_at > thread.updated_at) return {};
      return { threads: { ...current.threads, [thread.thread_id]: thread } };
    });
  const load = async () => {
    const [threads, states, members] = await Promise.allSettled([
      api.threads(address),
      api.reviewStates(address),
      api.members(address.projectId),
    ]);
    if (threads.status === 'fulfilled')
      store.setState({
        threads: Object.fromEntries(threads.value.threads.map((thread) => [thread.thread_id, thread])),
      });
    if (states.status === 'fulfilled')
      store.setState({ states: states.value.states, editorsApprove: states.value.editors_approve });
    if (members.status === 'fulfilled') store.setState({ members: members.value.members });
  };
  return {
    store,
    put,
    load,
    feed: {
      comment: put,
      review: (list) => store.setState({ states: list.states, editorsApprove: list.editors_approve }),
      connected: () => void load(),
    },
  };
}

export const ReviewContext = createContext<ReviewController | null>(null);

/** Review data for a card or panel; `fallback` where no review is provided (the MCP App). */
export function useReview<T>(selector: (data: ReviewData) => T, fallback: T): T {
  const review = useContext(ReviewContext);
  return useStore(review?.store ?? EMPTY, (data) => (review ? selector(data) : fallback));
}

const EMPTY = createStore<ReviewData>(() => ({
  threads: {},
  states: [],
  editorsApprove: false,
  members: [],
  pinning: null,
  pin: null,
  focus: null,
  compose: null,
}));

export function useReviewController(): ReviewController | null {
  return useContext(ReviewContext);
}

/** Open threads on a node (and shot, when given; `null` shot: the whole node, its shots included). */
export function openThreadCount(
  threads: Record<string, ThreadView>,
  nodeId: string,
  shotId: string | null = null,
): number {
  let count = 0;
  for (const thread of Object.values(threads))
    if (thread.status === 'open' && thread.node_id === nodeId && (shotId === null || thread.shot_id === shotId))
      count += 1;
  return count;
}

export function stateOf(
  states: readonly ReviewStateView[],
  nodeId: string,
  shotId: string | null,
): ReviewStateView | undefined {
  return states.find((state) => state.node_id === nodeId && state.shot_id === shotId);
}

/** "2 open comment threads" */
export function threadCountLabel(count: number): string {
  return `${count} open comment thread${count === 1 ? '' : 's'}`;
}

/** Films are read at 24 frames a second unless the reviewer picks another rate. */
export const DEFAULT_FILM_RATE: FrameRate = '24';

/** What a reviewer typed: SMPTE timecode (a frame at `rate`), or mm:ss (a time), or null when it is neither. */
export function readFilmTime(text: string, rate: FrameRate): { frame: number } | { ms: number } | null {
  if (/^\s*\d{2}:\d{2}:\d{2}[:;.,]\d{2}\s*$/.test(text)) {
    const frame = frameOfTimecode(text, rate, 0);
    return frame === null ? null : { frame };
  }
  const ms = parseTimecode(text);
  return ms === null ? null : { ms };
}

/** mm:ss (or m:ss.s) as milliseconds, for a thread's time; null when the text is not one. */
export function parseTimecode(text: string): number | null {
  const match = /^\s*(?:(\d{1,3}):)?(\d{1,2}(?:\.\d+)?)\s*$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[1] ?? 0);
  const seconds = Number(match[2]);
  if (!Number.isFinite(seconds) || (match[1] !== undefined && seconds >= 60)) return null;
  return Math.round((minutes * 60 + seconds) * 1000);
}

/** When a comment or notification was written, as a person reads it. */
export function when(iso: string): string {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return today
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
