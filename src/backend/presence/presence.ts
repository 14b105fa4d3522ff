import { randomUUID } from 'node:crypto';
import type { PageOrder, PresenceEntry } from '../../contract/index.js';
import type { Logger } from '../../shared/logger.js';
import { canvasSubject } from '../../store/feed-bus/index.js';
import type { Store } from '../../store/store.js';
import { feedEvent, type FeedSubscriber } from '../feed/feed-hub.js';

/**
 * Who is on each canvas now (docs/ui.md, "Who else is here"), in memory: people's pages report their selection and
 * cursor, and agents' tool calls report the node they touched. Nothing is stored or written to history. Entries expire
 * by themselves (a page reports at least every 10 s; an agent counts for a minute after its last call). Watchers (open
 * change feeds) get the whole list as a `presence` event whenever it changes, coalesced to one event per 50 ms per
 * canvas. Across server processes on one PostgreSQL each change is published with NOTIFY, and every process keeps the
 * same list. Without watchers a change costs a map write (and, on PostgreSQL, one NOTIFY; an agent's, at most one per
 * 250 ms).
 *
 * With the feed bus (`--feed-bus`) each change goes to its canvas's presence subject, which a process follows only
 * while it has watchers for the canvas. When it starts following (or the bus comes back) it says hello on the subject,
 * and every process following the canvas answers with the entries it holds, so the list is whole at once. A process
 * without watchers holds only what its own pages and agents reported (and hears no hello): an entry only such a
 * process holds reaches a new watcher with its next report (a page reports at least every 10 s).
 */

export const PERSON_TTL_MS = 30_000;

/** A person's key among a canvas's entries (and the presenter's key of a review room). */
export const personPresenceKey = (person: { issuer: string; subject: string }) =>
  `person:${person.issuer}|${person.subject}`;
export const AGENT_TTL_MS = 60_000;
const COALESCE_MS = 50;
const SWEEP_MS = 5_000;
/** An agent's repeated calls on one canvas are reported at most this often, unless the node it touches changes. */
const AGENT_REPORT_MS = 2_000;
/**
 * What an agent's calls change crosses to other processes at most this often per agent and canvas, the newest at the
 * end of the wait (docs/scaling.md, "Measured at scale"): an agent writing hundreds of nodes a second moves its marker
 * with every one here, but costs the others (and the database's NOTIFY) a signal a quarter second, not a round trip per
 * write.
 */
const AGENT_SEND_MS = 250;
const CHANNEL = 'canvas_presence';

const COLORS = ['#1f6feb', '#c2410c', '#15803d', '#9333ea', '#b91c1c', '#0e7490', '#a16207', '#be185d'];

export function colorOf(key: string): string {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLORS[hash % COLORS.length]!;
}

interface Held {
  kind: PresenceEntry['kind'];
  name: string;
  /** A person's picture URL, when they chose one. */
  picture?: string | null;
  selection: string[];
  cursor: PresenceEntry['cursor'];
  nodeId: string | null;
  at: number;
  /** A person's report: the page it came from and its place among that page's reports. */
  order?: PageOrder;
}

type Signal =
  | { origin: string; project: string; canvas: string; key: string; held: Held }
  | { origin: string; project: string; canvas: string; key: string; gone: true; order?: PageOrder };

/** On the feed bus: a process started following the canvas and asks the others for their own entries. */
interface Hello {
  origin: string;
  project: string;
  canvas: string;
  hello: true;
}

export interface PersonReport {
  key: string;
  name: string;
  picture?: string | null;
  selection: string[];
  cursor: PresenceEntry['cursor'];
  /** Null from a page that does not say (then the last report to arrive wins). */
  order: PageOrder | null;
}

export interface Presence {
  report(projectId: string, canvasId: string, person: PersonReport): void;
  leave(projectId: string, canvasId: string, key: string, order?: PageOrder | null): void;
  touchAgent(projectId: string, canvasId: string, agent: { key: string; name: string }, nodeId: string | null): void;
  list(projectId: string, canvasId: string): PresenceEntry[];
  /** Sends the list now (when anyone is there) and on every change until the answer is called. */
  watch(projectId: string, canvasId: string, subscriber: FeedSubscriber): () => void;
  close(): Promise<void>;
}

export async function createPresence(store: Store, logger: Logger, clock: () => number = Date.now): Promise<Presence> {
  const origin = randomUUID();
  const canvases = new Map<string, Map<string, Held>>();
  const watchers = new Map<string, Set<FeedSubscriber>>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const canvasKey = (projectId: string, canvasId: string) => `${projectId}\u0000${canvasId}`;

  function live(key: string): Map<string, Held> {
    const entries = canvases.get(key) ?? new Map<string, Held>();
    const now = clock();
    let expired = false;
    for (const [id, held] of entries) {
      if (now - held.at > (held.kind === 'person' ? PERSON_TTL_MS : AGENT_TTL_MS)) {
        entries.delete(id);
        expired = true;
      }
    }
    if (entries.size === 0) canvases.delete(key);
    if (expired) schedule(key);
    return entries;
  }

  function entriesOf(key: string): PresenceEntry[] {
    const now = clock();
    return [...live(key)].map(([id, held]) => ({
      key: id,
      kind: held.kind,
      name: held.name,
      ...(held.picture ? { picture_url: held.picture } : {}),
      color: colorOf(id),
      selection: held.selection,
      cursor: held.cursor,
      node_id: held.nodeId,
      seen_ms_ago: Math.max(0, now - held.at),
    }));
  }

  /** One event per canvas per COALESCE_MS, to its watchers only. */
  function schedule(key: string): void {
    if (!watchers.get(key)?.size || pending.has(key)) return;
    pending.set(
      key,
      setTimeout(() => {
        pending.delete(key);
        const event = feedEvent('presence', JSON.stringify({ entries: entriesOf(key) }));
        for (const subscriber of watchers.get(key) ?? []) subscriber.send(event);
      }, COALESCE_MS),
    );
  }

  /**
   * The count of the newest report or leaving seen from each page of each entry, with when it was seen. A page's
   * reports and its leaving can arrive out of order (two requests on two connections; two NOTIFYs sent on two
   * database connections), and every process applies the same rule, so all end on the page's newest word.
   */
  const newestOfPage = new Map<string, { seq: number; at: number }>();

  function isStale(key: string, signal: Signal): boolean {
    const order = 'gone' in signal ? signal.order : signal.held.order;
    if (!order) return false;
    const pageKey = `${key}\u0000${signal.key}\u0000${order.tab}`;
    const newest = newestOfPage.get(pageKey);
    if (newest && order.seq <= newest.seq) return true;
    newestOfPage.set(pageKey, { seq: order.seq, at: clock() });
    return false;
  }

  /** Applies what a signal says unless it is stale; false when it was. */
  function apply(signal: Signal): boolean {
    const key = canvasKey(signal.project, signal.canvas);
    if (isStale(key, signal)) return false;
    if ('gone' in signal) {
      canvases.get(key)?.delete(signal.key);
    } else {
      const entries = canvases.get(key) ?? new Map<string, Held>();
      entries.set(signal.key, signal.held);
      canvases.set(key, entries);
    }
    schedule(key);
    return true;
  }

  function publish(signal: Signal): void {
    if (apply(signal)) send(signal);
  }

  /** On SQLite without the bus, other processes hold no presence. */
  const crossesProcesses = store.dialect === 'postgres' || store.bus !== null;

  /** Per agent and canvas, while a signal went less than AGENT_SEND_MS ago: the newest one held back since. */
  const agentWindows = new Map<string, { held: Signal | null; timer: NodeJS.Timeout }>();

  function publishAgent(signal: Signal): void {
    apply(signal);
    if (!crossesProcesses) return;
    const key = `${canvasKey(signal.project, signal.canvas)}\u0000${signal.key}`;
    const open = agentWindows.get(key);
    if (open) open.held = signal;
    else sendAgent(key, signal);
  }

  function sendAgent(key: string, signal: Signal): void {
    send(signal);
    const window = {
      held: null as Signal | null,
      timer: setTimeout(() => {
        agentWindows.delete(key);
        if (window.held) sendAgent(key, window.held);
      }, AGENT_SEND_MS),
    };
    window.timer.unref();
    agentWindows.set(key, window);
  }

  function send(signal: Signal | Hello): void {
    if (!crossesProcesses) return;
    // Times travel as ages: the clocks of two servers need not agree.
    const wire = JSON.stringify(
      'held' in signal ? { ...signal, held: { ...signal.held, at: clock() - signal.held.at } } : signal,
    );
    if (store.bus) {
      store.bus.publish(canvasSubject('presence', signal.project, signal.canvas), wire);
      return;
    }
    store.driver
      .notify(store.driver, CHANNEL, wire)
      .catch((error: unknown) => logger.warn({ err: error }, 'presence was not published'));
  }

  /** Says again, on the bus, every entry of the canvas this process holds (with its age: expiry is unchanged). */
  function answerHello(projectId: string, canvasId: string): void {
    for (const [entryKey, held] of live(canvasKey(projectId, canvasId))) {
      send({ origin, project: projectId, canvas: canvasId, key: entryKey, held });
    }
  }

  function heard(payload: string): void {
    try {
      const signal = JSON.parse(payload) as Signal | Hello;
      if (signal.origin === origin) return;
      if ('hello' in signal) answerHello(signal.project, signal.canvas);
      else apply('held' in signal ? { ...signal, held: { ...signal.held, at: clock() - signal.held.at } } : signal);
    } catch (error) {
      logger.warn({ err: error }, 'a presence signal could not be read');
    }
  }

  /** On the feed bus, the canvases whose presence subject this process follows (those with watchers). */
  const followed = new Map<string, { projectId: string; canvasId: string; release: () => void }>();

  /** Asks the processes following the canvas for their entries, and tells them the ones this process holds. */
  function greet(projectId: string, canvasId: string): void {
    send({ origin, project: projectId, canvas: canvasId, hello: true });
    answerHello(projectId, canvasId);
  }

  // Back after an outage of the bus: what was said meanwhile reached nobody.
  const stopStatus = store.bus
    ? store.bus.onStatus((up) => {
        if (up) for (const { projectId, canvasId } of followed.values()) greet(projectId, canvasId);
      })
    : () => undefined;
  const stopListening =
    store.dialect === 'postgres' && !store.bus ? await store.listen(CHANNEL, heard) : async () => undefined;

  // Expiry is noticed on a timer only while someone watches.
  const sweep = setInterval(() => {
    for (const key of watchers.keys()) live(key);
    // A page's count matters while its reports may still be on their way; a page quiet this long has left.
    const now = clock();
    for (const [pageKey, newest] of newestOfPage) if (now - newest.at > PERSON_TTL_MS) newestOfPage.delete(pageKey);
  }, SWEEP_MS);
  sweep.unref();

  return {
    report(projectId, canvasId, person) {
      publish({
        origin,
        project: projectId,
        canvas: canvasId,
        key: person.key,
        held: {
          kind: 'person',
          name: person.name,
          picture: person.picture,
          selection: person.selection,
          cursor: person.cursor,
          nodeId: null,
          at: clock(),
          ...(person.order ? { order: person.order } : {}),
        },
      });
    },

    leave(projectId, canvasId, key, order = null) {
      publish({ origin, project: projectId, canvas: canvasId, key, gone: true, ...(order ? { order } : {}) });
    },

    touchAgent(projectId, canvasId, agent, nodeId) {
      const known = canvases.get(canvasKey(projectId, canvasId))?.get(agent.key);
      const now = clock();
      if (known && now - known.at < AGENT_REPORT_MS && (nodeId === null || nodeId === known.nodeId)) return;
      const held: Held = {
        kind: 'agent',
        name: agent.name,
        selection: [],
        cursor: null,
        nodeId: nodeId ?? known?.nodeId ?? null,
        at: now,
      };
      publishAgent({ origin, project: projectId, canvas: canvasId, key: agent.key, held });
    },

    list: (projectId, canvasId) => entriesOf(canvasKey(projectId, canvasId)),

    watch(projectId, canvasId, subscriber) {
      const key = canvasKey(projectId, canvasId);
      const set = watchers.get(key) ?? new Set<FeedSubscriber>();
      set.add(subscriber);
      watchers.set(key, set);
      if (store.bus && !followed.has(key)) {
        const release = store.bus.subscribe(canvasSubject('presence', projectId, canvasId), heard);
        followed.set(key, { projectId, canvasId, release });
        // The subscription goes to NATS before the hello on the same connection, so every answer reaches it.
        greet(projectId, canvasId);
      }
      // Nobody there: nothing to say (a page starts from an empty list); otherwise the list as it is now.
      const entries = entriesOf(key);
      if (entries.length > 0) subscriber.send(feedEvent('presence', JSON.stringify({ entries })));
      return () => {
        set.delete(subscriber);
        if (set.size > 0 || watchers.get(key) !== set) return;
        watchers.delete(key);
        followed.get(key)?.release();
        followed.delete(key);
      };
    },

    async close() {
      clearInterval(sweep);
      for (const window of agentWindows.values()) clearTimeout(window.timer);
      agentWindows.clear();
      for (const timer of pending.values()) clearTimeout(timer);
      stopStatus();
      for (const { release } of followed.values()) release();
      followed.clear();
      await stopListening();
    },
  };
}
