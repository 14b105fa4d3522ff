import type { ResetEvent, ReviewStateList } from '../../contract/index.js';
import { layoutEventJson } from '../../store/history-reads.js';
import type { CommittedWrite } from '../../store/layout-writes/index.js';
import type { Logger } from '../../shared/logger.js';
import { runtimeState } from '../../store/run-rows.js';
import type { Store } from '../../store/store.js';
import { threadStates } from '../review/review-views.js';
import { canvasReviewStates } from '../review/review-states.js';

/**
 * The change feed of this process (docs/api.md, "Change feed"). For every canvas someone watches it keeps the
 * revision and node states it last sent; when told a canvas may have changed (a write of this process, a
 * notification from another process, a poll) it reads what changed from the store once and sends it to every
 * subscriber of that canvas, in revision order. A subscriber that falls behind is cut off with `reset`, so a slow
 * reader never makes memory grow.
 */

/**
 * An event as it goes on the wire: its SSE frame is built and encoded once, whatever the number of subscribers (the
 * data is the JSON of LayoutEvent, NodeStateEvent or ResetEvent of src/contract/history.ts; JSON has no raw newline,
 * so it is one `data:` line).
 */
export interface FeedEvent {
  event: 'layout' | 'node_state' | 'reset' | 'presence' | 'export' | 'comment' | 'review' | 'room';
  frame: Buffer;
}

export function feedEvent(event: FeedEvent['event'], json: string, id?: number): FeedEvent {
  return { event, frame: Buffer.from(`event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${json}\n\n`) };
}

export function reset(reason: ResetEvent['reason'], revision: number): FeedEvent {
  return feedEvent('reset', JSON.stringify({ reason, revision } satisfies ResetEvent));
}

function nodeState(nodeId: string, stateJson: string | null): FeedEvent {
  return feedEvent('node_state', `{"node_id":${JSON.stringify(nodeId)},"state":${stateJson ?? 'null'}}`);
}

export interface FeedSubscriber {
  /** Queues an event; false when the subscriber's buffer is full (the hub then resets and drops it). */
  send(event: FeedEvent): boolean;
  /** Ends the stream (after a reset, a revoked right, a shutdown). */
  close(reason: string): void;
  /** Resolves once everything sent so far has left for the socket (or the stream closed): the replay's backpressure. */
  drained(): Promise<void>;
  /** Whether the stream has ended (the client went away, or close was called). */
  readonly closed: boolean;
}

export interface FeedHubOptions {
  /** A gap of more revisions than this is not replayed: the client is told to re-read. */
  maxReplayRevisions?: number;
  /**
   * A replay of more event bytes than this is not sent: the client is told to re-read the snapshot instead (replays of
   * large bodies held hundreds of MB per unread connection).
   */
  maxReplayBytes?: number;
}

/** Revisions read from the store at a time while replaying: memory holds one page, sent before the next is read. */
const REPLAY_PAGE_REVISIONS = 8;

interface CanvasFeed {
  projectId: string;
  canvasId: string;
  revision: number;
  statesVersion: number;
  /** node id → JSON of its runtime state, as last sent. */
  states: Map<string, string>;
  /** export id → JSON of its status and progress, as last sent. */
  exports: Map<string, string>;
  /** thread id → JSON of its view, as last sent; the review states' JSON, as last sent. */
  threads: Map<string, string>;
  reviewStates: string;
  /** A write of this process changed the layout while something is approved: read the review states again. */
  reviewStale: boolean;
  subscribers: Set<FeedSubscriber>;
  /** Subscribers being replayed to, not yet among `subscribers`: the canvas is watched meanwhile. */
  joining: number;
  /** One refresh at a time per canvas; a poke during one asks for another after it. */
  refreshing: Promise<void> | null;
  again: boolean;
}

const keyOf = (projectId: string, canvasId: string) => `${projectId}/${canvasId}`;

const hasApproval = (feed: CanvasFeed) => feed.reviewStates.includes('"state":"approved"');

/**
 * The `review` event's data, as GET …/review-states answers it: every review state of the canvas, and whether editors
 * may approve (an owner's change of it reaches open pages as this event too).
 */
async function reviewStatesJson(store: Store, ref: { projectId: string; canvasId: string }): Promise<string> {
  const list: ReviewStateList = {
    states: await canvasReviewStates(store, ref),
    editors_approve: await store.review.editorsApprove(ref.projectId),
  };
  return JSON.stringify(list);
}

export function createFeedHub(store: Store, logger: Logger, options: FeedHubOptions = {}) {
  const maxReplay = options.maxReplayRevisions ?? 1000;
  const maxReplayBytes = options.maxReplayBytes ?? 4 * 1024 * 1024;
  const canvases = new Map<string, CanvasFeed>();
  /** Hear a canvas gain its first subscriber and lose its last (the feed bus follows exactly these canvases). */
  const watchListeners = new Set<(projectId: string, canvasId: string, watched: boolean) => void>();

  function told(feed: CanvasFeed, watched: boolean): void {
    for (const listener of [...watchListeners]) {
      try {
        listener(feed.projectId, feed.canvasId, watched);
      } catch (error) {
        logger.warn({ err: error, project_id: feed.projectId, canvas_id: feed.canvasId }, 'a feed watcher failed');
      }
    }
  }

  /** The canvas's last subscriber has left: forget it (not while a refresh of it runs: that refresh ends it). */
  function forgetIfIdle(feed: CanvasFeed): void {
    const key = keyOf(feed.projectId, feed.canvasId);
    if (feed.subscribers.size > 0 || feed.joining > 0 || feed.refreshing || canvases.get(key) !== feed) return;
    canvases.delete(key);
    told(feed, false);
  }

  function deliver(feed: CanvasFeed, targets: Iterable<FeedSubscriber>, event: FeedEvent): void {
    for (const subscriber of targets) {
      if (!subscriber.send(event)) {
        // Too slow: its buffer is full. It must re-read the snapshot when it comes back.
        subscriber.send(reset('slow_reader', feed.revision));
        subscriber.close('slow_reader');
        feed.subscribers.delete(subscriber);
      }
    }
  }

  async function currentStates(projectId: string, canvasId: string): Promise<Map<string, string>> {
    const rows = await store.runs.latestRunsByNode(projectId, canvasId);
    return new Map(rows.map((row) => [row.node_id, JSON.stringify(runtimeState(row))]));
  }

  async function refreshOnce(feed: CanvasFeed): Promise<void> {
    const canvas = await store.layout.readCanvas(feed.projectId, feed.canvasId);
    if (!canvas) return;
    const layoutMoved = canvas.revision > feed.revision;
    const statesMoved = canvas.statesVersion !== feed.statesVersion;
    if (layoutMoved) {
      const events = await store.history.eventsAfter(
        feed.projectId,
        feed.canvasId,
        feed.revision,
        canvas.revision,
        maxReplay,
      );
      if (!events) {
        feed.revision = canvas.revision;
        deliver(feed, [...feed.subscribers], reset('gap_too_large', canvas.revision));
      } else {
        for (const event of events) {
          feed.revision = event.revision;
          deliver(feed, [...feed.subscribers], feedEvent('layout', event.json, event.revision));
        }
      }
    }
    if (statesMoved) {
      feed.statesVersion = canvas.statesVersion;
      const next = await currentStates(feed.projectId, feed.canvasId);
      for (const [nodeId, json] of next) {
        if (feed.states.get(nodeId) !== json) deliver(feed, [...feed.subscribers], nodeState(nodeId, json));
      }
      for (const nodeId of feed.states.keys()) {
        if (!next.has(nodeId)) deliver(feed, [...feed.subscribers], nodeState(nodeId, null));
      }
      feed.states = next;
      // Export jobs bump the same version: their status and progress go out as `export` events.
      const jobs = await store.exports.recentStates(feed.projectId, feed.canvasId);
      for (const [exportId, json] of jobs) {
        if (feed.exports.get(exportId) !== json) deliver(feed, [...feed.subscribers], feedEvent('export', json));
      }
      feed.exports = jobs;
      // Comments and review states bump it too (never the revision): threads that changed go out as `comment`
      // events, the canvas's review states as one `review` event when they differ.
      const threads = await threadStates(store, feed.projectId, feed.canvasId);
      for (const [threadId, json] of threads) {
        if (feed.threads.get(threadId) !== json) deliver(feed, [...feed.subscribers], feedEvent('comment', json));
      }
      feed.threads = threads;
    }
    // An approved shot that a layout write changed is "changed since approval": the states are read again then too.
    if (statesMoved || feed.reviewStale || (layoutMoved && hasApproval(feed))) {
      feed.reviewStale = false;
      const review = await reviewStatesJson(store, feed);
      if (review !== feed.reviewStates) deliver(feed, [...feed.subscribers], feedEvent('review', review));
      feed.reviewStates = review;
    }
  }

  /** Runs refreshes of one canvas one after another; pokes that arrive meanwhile cost one more refresh, not many. */
  function refresh(feed: CanvasFeed): Promise<void> {
    if (feed.refreshing) {
      feed.again = true;
      return feed.refreshing;
    }
    feed.refreshing = (async () => {
      do {
        feed.again = false;
        try {
          await refreshOnce(feed);
        } catch (error) {
          // The store is away: the next poke (or poll) tries again; subscribers keep their place.
          logger.warn(
            { err: error, project_id: feed.projectId, canvas_id: feed.canvasId },
            'change feed refresh failed',
          );
        }
      } while (feed.again);
    })().finally(() => {
      feed.refreshing = null;
      forgetIfIdle(feed);
    });
    return feed.refreshing;
  }

  /**
   * Sends the revisions after `after` up to the canvas's current one, a page at a time, waiting for each page to
   * leave before reading the next; past maxReplayRevisions or maxReplayBytes it sends `reset` instead. Returns with
   * no refresh running and the subscriber at the feed's revision.
   */
  async function replay(feed: CanvasFeed, after: number | null, subscriber: FeedSubscriber): Promise<void> {
    while (feed.refreshing) await feed.refreshing;
    let sent = after ?? feed.revision;
    if (sent > feed.revision) {
      subscriber.send(reset('unknown_revision', feed.revision));
      return;
    }
    const from = sent;
    let bytes = 0;
    // Decided before anything is sent, when it can be: a client owed too much re-reads the snapshot instead.
    let tooMuch =
      feed.revision - from > maxReplay ||
      (sent < feed.revision &&
        (await store.history.changeLogBytes(feed.projectId, feed.canvasId, sent, feed.revision)) > maxReplayBytes);
    for (;;) {
      while (feed.refreshing) await feed.refreshing;
      if (sent >= feed.revision || subscriber.closed) return;
      if (tooMuch || feed.revision - from > maxReplay) {
        subscriber.send(reset('gap_too_large', feed.revision));
        return;
      }
      const upTo = Math.min(feed.revision, sent + REPLAY_PAGE_REVISIONS);
      const events = await store.history.eventsAfter(feed.projectId, feed.canvasId, sent, upTo, REPLAY_PAGE_REVISIONS);
      if (!events) {
        tooMuch = true;
        continue;
      }
      for (const event of events) bytes += event.json.length;
      if (bytes > maxReplayBytes) {
        tooMuch = true;
        continue;
      }
      for (const event of events) subscriber.send(feedEvent('layout', event.json, event.revision));
      sent = upTo;
      await subscriber.drained();
    }
  }

  return {
    /**
     * Adds a subscriber that has the layout at `after` (its snapshot's revision, or the Last-Event-ID it resumes
     * from): it first gets every revision since then (or `reset` when they cannot be replayed) and the current node
     * states, then live events. Returns the unsubscribe function.
     */
    async subscribe(
      projectId: string,
      canvasId: string,
      after: number | null,
      subscriber: FeedSubscriber,
    ): Promise<() => void> {
      const key = keyOf(projectId, canvasId);
      let feed = canvases.get(key);
      if (!feed) {
        const canvas = await store.layout.readCanvas(projectId, canvasId);
        const opened: CanvasFeed = {
          projectId,
          canvasId,
          revision: canvas?.revision ?? 0,
          statesVersion: canvas?.statesVersion ?? 0,
          states: await currentStates(projectId, canvasId),
          exports: await store.exports.recentStates(projectId, canvasId),
          threads: await threadStates(store, projectId, canvasId),
          reviewStates: await reviewStatesJson(store, { projectId, canvasId }),
          reviewStale: false,
          subscribers: new Set(),
          joining: 0,
          refreshing: null,
          again: false,
        };
        // Another first subscriber may have opened the canvas while these reads ran: join that one.
        feed = canvases.get(key) ?? opened;
        if (feed === opened) {
          canvases.set(key, opened);
          told(opened, true);
        }
      }
      const joined = feed;
      joined.joining += 1;
      try {
        await replay(joined, after, subscriber);
      } catch (error) {
        joined.joining -= 1;
        forgetIfIdle(joined);
        throw error;
      }
      joined.joining -= 1;
      // Nothing is awaited between the end of the replay and joining: the replay and the live events meet without
      // a gap or a repeat.
      for (const [nodeId, json] of joined.states) subscriber.send(nodeState(nodeId, json));
      joined.subscribers.add(subscriber);
      void refresh(joined);
      return () => {
        joined.subscribers.delete(subscriber);
        // Only this feed's own entry: after closeAll, the canvas may already have a new one with new subscribers.
        forgetIfIdle(joined);
      };
    },

    /**
     * A write of this process committed: when it is the next revision of a watched canvas, its event is built from
     * what the write already holds, with no read of the store.
     */
    committed(write: CommittedWrite): void {
      const feed = canvases.get(keyOf(write.projectId, write.canvasId));
      if (!feed) return;
      if (!feed.refreshing && feed.revision === write.revision - 1) {
        feed.revision = write.revision;
        const json = layoutEventJson(write.revision, write.author, write.at, write.operation, write.changes);
        deliver(feed, [...feed.subscribers], feedEvent('layout', json, write.revision));
        if (hasApproval(feed)) feed.reviewStale = true;
        if (write.runsToSignal.length > 0 || feed.reviewStale) void refresh(feed);
        return;
      }
      void refresh(feed);
    },

    /** A canvas may have changed (this process wrote it, another process said so, a poll saw the database move). */
    poke(projectId: string, canvasId: string): void {
      const feed = canvases.get(keyOf(projectId, canvasId));
      if (feed) void refresh(feed);
    },

    /** Every watched canvas may have changed (another process wrote, the database came back). */
    pokeAll(): void {
      for (const feed of canvases.values()) void refresh(feed);
    },

    /** How many subscribers are connected (metrics, tests). */
    subscriberCount(): number {
      let count = 0;
      for (const feed of canvases.values()) count += feed.subscribers.size;
      return count;
    },

    watching(): boolean {
      return canvases.size > 0;
    },

    /** The canvases with subscribers here now. */
    watchedCanvases(): Array<{ projectId: string; canvasId: string }> {
      return [...canvases.values()].map(({ projectId, canvasId }) => ({ projectId, canvasId }));
    },

    /**
     * Hears a canvas gain its first subscriber on this process (`true`) and lose its last (`false`). Returns the
     * function that stops hearing.
     */
    onWatchChange(listener: (projectId: string, canvasId: string, watched: boolean) => void): () => void {
      watchListeners.add(listener);
      return () => watchListeners.delete(listener);
    },

    closeAll(reason: string): void {
      for (const feed of canvases.values()) for (const subscriber of feed.subscribers) subscriber.close(reason);
      const closing = [...canvases.values()];
      canvases.clear();
      for (const feed of closing) told(feed, false);
    },
  };
}

export type FeedHub = ReturnType<typeof createFeedHub>;
