import type { LayoutEvent, NodeStateEvent, ResetEvent } from '../../contract/index.js';
import type { Logger } from '../../shared/logger.js';
import { runtimeState } from '../../store/run-rows.js';
import type { Store } from '../../store/store.js';

/**
 * The change feed of this process (docs/api.md, "Change feed"). For every canvas someone watches it keeps the
 * revision and node states it last sent; when told a canvas may have changed (a write of this process, a
 * notification from another process, a poll) it reads what changed from the store once and sends it to every
 * subscriber of that canvas, in revision order. A subscriber that falls behind is cut off with `reset`, so a slow
 * reader never makes memory grow.
 */

export type FeedEvent =
  | { event: 'layout'; id: number; data: LayoutEvent }
  | { event: 'node_state'; data: NodeStateEvent }
  | { event: 'reset'; data: ResetEvent };

export interface FeedSubscriber {
  /** Queues an event; false when the subscriber's buffer is full (the hub then resets and drops it). */
  send(event: FeedEvent): boolean;
  /** Ends the stream (after a reset, a revoked right, a shutdown). */
  close(reason: string): void;
}

export interface FeedHubOptions {
  /** A gap of more revisions than this is not replayed: the client is told to re-read. */
  maxReplayRevisions?: number;
}

interface CanvasFeed {
  projectId: string;
  canvasId: string;
  revision: number;
  statesVersion: number;
  /** node id → JSON of its runtime state, as last sent. */
  states: Map<string, string>;
  subscribers: Set<FeedSubscriber>;
  /** One refresh at a time per canvas; a poke during one asks for another after it. */
  refreshing: Promise<void> | null;
  again: boolean;
}

const keyOf = (projectId: string, canvasId: string) => `${projectId}/${canvasId}`;

export function createFeedHub(store: Store, logger: Logger, options: FeedHubOptions = {}) {
  const maxReplay = options.maxReplayRevisions ?? 1000;
  const canvases = new Map<string, CanvasFeed>();

  function deliver(feed: CanvasFeed, targets: Iterable<FeedSubscriber>, event: FeedEvent): void {
    for (const subscriber of targets) {
      if (!subscriber.send(event)) {
        // Too slow: its buffer is full. It must re-read the snapshot when it comes back.
        subscriber.send({ event: 'reset', data: { reason: 'slow_reader', revision: feed.revision } });
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
    if (canvas.revision > feed.revision) {
      const events = await store.history.eventsAfter(feed.projectId, feed.canvasId, feed.revision, canvas.revision, maxReplay);
      if (!events) {
        feed.revision = canvas.revision;
        deliver(feed, [...feed.subscribers], { event: 'reset', data: { reason: 'gap_too_large', revision: canvas.revision } });
      } else {
        for (const data of events) {
          feed.revision = data.revision;
          deliver(feed, [...feed.subscribers], { event: 'layout', id: data.revision, data });
        }
      }
    }
    if (canvas.statesVersion !== feed.statesVersion) {
      feed.statesVersion = canvas.statesVersion;
      const next = await currentStates(feed.projectId, feed.canvasId);
      for (const [nodeId, json] of next) {
        if (feed.states.get(nodeId) !== json) deliver(feed, [...feed.subscribers], { event: 'node_state', data: { node_id: nodeId, state: JSON.parse(json) } });
      }
      for (const nodeId of feed.states.keys()) {
        if (!next.has(nodeId)) deliver(feed, [...feed.subscribers], { event: 'node_state', data: { node_id: nodeId, state: null } });
      }
      feed.states = next;
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
          logger.warn({ err: error, project_id: feed.projectId, canvas_id: feed.canvasId }, 'change feed refresh failed');
        }
      } while (feed.again);
    })().finally(() => {
      feed.refreshing = null;
    });
    return feed.refreshing;
  }

  return {
    /**
     * Adds a subscriber that has the layout at `after` (its snapshot's revision, or the Last-Event-ID it resumes
     * from): it first gets every revision since then (or `reset` when they cannot be replayed) and the current node
     * states, then live events. Returns the unsubscribe function.
     */
    async subscribe(projectId: string, canvasId: string, after: number | null, subscriber: FeedSubscriber): Promise<() => void> {
      const key = keyOf(projectId, canvasId);
      let feed = canvases.get(key);
      if (!feed) {
        const canvas = await store.layout.readCanvas(projectId, canvasId);
        feed = {
          projectId,
          canvasId,
          revision: canvas?.revision ?? 0,
          statesVersion: canvas?.statesVersion ?? 0,
          states: await currentStates(projectId, canvasId),
          subscribers: new Set(),
          refreshing: null,
          again: false,
        };
        canvases.set(key, feed);
      }
      const joined = feed;
      // Join after the current refresh, so the replay and the live events meet without a gap or a repeat.
      while (joined.refreshing) await joined.refreshing;
      const from = after ?? joined.revision;
      if (from < joined.revision) {
        const events = await store.history.eventsAfter(projectId, canvasId, from, joined.revision, maxReplay);
        if (!events) subscriber.send({ event: 'reset', data: { reason: from < 0 ? 'unknown_revision' : 'gap_too_large', revision: joined.revision } });
        else for (const data of events) subscriber.send({ event: 'layout', id: data.revision, data });
      } else if (from > joined.revision) {
        subscriber.send({ event: 'reset', data: { reason: 'unknown_revision', revision: joined.revision } });
      }
      for (const [nodeId, json] of joined.states) subscriber.send({ event: 'node_state', data: { node_id: nodeId, state: JSON.parse(json) } });
      joined.subscribers.add(subscriber);
      void refresh(joined);
      return () => {
        joined.subscribers.delete(subscriber);
        if (joined.subscribers.size === 0 && !joined.refreshing) canvases.delete(key);
      };
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

    closeAll(reason: string): void {
      for (const feed of canvases.values()) for (const subscriber of feed.subscribers) subscriber.close(reason);
      canvases.clear();
    },
  };
}

export type FeedHub = ReturnType<typeof createFeedHub>;
