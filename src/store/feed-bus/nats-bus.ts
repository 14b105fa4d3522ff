import type { ConnectionOptions, NatsConnection, Subscription } from 'nats';
import type { Logger } from '../../shared/logger.js';
import { kindOfSubject, SIGNAL_KINDS, type SignalKind } from './subjects.js';

/**
 * The feed bus (`--feed-bus nats://…`): signals between server processes over NATS core subjects instead of
 * PostgreSQL NOTIFY, so a write reaches only the processes that follow its canvas (docs/scaling.md, "A fan-out bus:
 * NATS"). It carries signals, never data: the change log stays the source of truth, and a signal lost on the way (NATS
 * core is at-most-once) is repaired by the revision check the feed already does.
 *
 * When NATS cannot be reached, at start or later, the process keeps serving: one warning line says so (the URL without
 * its credentials), the outage is counted, `onStatus` listeners hear `false` and fall back to polling the store, and
 * the connection comes back by itself (the client reconnects without end; a first connection that failed is retried
 * here). Listeners hear `true` when it is back, to re-read what they may have missed.
 */

export interface FeedBusStats {
  up: boolean;
  /** Times the bus went away (or could not be reached at start). */
  outages: number;
  /** Subjects this process follows now. */
  subscriptions: number;
  published: Record<SignalKind, number>;
  received: Record<SignalKind, number>;
  /** Signals not published because there was no connection to hand them to (the fallback poll covers them). */
  dropped: number;
}

export interface FeedBus {
  /** Where the bus is, without credentials (logs, doctor). */
  readonly address: string;
  isUp(): boolean;
  /** Publishes now (a transaction's signals are handed over after it commits: src/store/feed-bus/bus-driver.ts). */
  publish(subject: string, payload: string): void;
  /**
   * Follows a subject: the first handler of a subject subscribes this process to it, the last one to leave
   * unsubscribes it. Returns the release function.
   */
  subscribe(subject: string, onMessage: (payload: string) => void): () => void;
  /** Resolves once the server has every subscription made so far (at once while the bus is down). */
  settled(): Promise<void>;
  /** Hears the bus go away (false) and come back (true). */
  onStatus(listener: (up: boolean) => void): () => void;
  stats(): FeedBusStats;
  close(): Promise<void>;
}

export interface FeedBusOptions {
  logger: Logger;
  /** Pause between attempts at a first connection that failed. */
  retryMs?: number;
  clock?: () => number;
}

const RECONNECT_WAIT_MS = 250;
const CONNECT_TIMEOUT_MS = 2_000;
/**
 * A NATS that goes away without closing the connection (a network cut, a frozen host) is noticed by pings: two
 * unanswered ones 10 s apart, so within about 30 s (the client's default, 2 minutes apart, would leave feeds waiting
 * for signals that cannot come for 4 minutes before they fall back to polling).
 */
const PING_INTERVAL_MS = 10_000;
const MAX_PINGS_OUT = 2;

/** `nats://user:secret@host:4222,nats://other:4222` → `nats://host:4222,nats://other:4222`: safe to log. */
export function redactBusUrl(url: string): string {
  return url
    .split(',')
    .map((part) => {
      try {
        const parsed = new URL(part.trim());
        return `${parsed.protocol}//${parsed.host}`;
      } catch {
        return '(unreadable address)';
      }
    })
    .join(',');
}

/** The servers and the credentials a URL carries (the client takes them as options, not inside the URL). */
export function connectionOptionsOf(url: string): ConnectionOptions {
  const options: ConnectionOptions = { servers: [] };
  const servers: string[] = [];
  for (const part of url.split(',')) {
    const parsed = new URL(part.trim());
    servers.push(parsed.host);
    const user = decodeURIComponent(parsed.username);
    const pass = decodeURIComponent(parsed.password);
    if (user && pass) Object.assign(options, { user, pass });
    else if (user) options.token = user;
  }
  options.servers = servers;
  return options;
}

const counts = () => Object.fromEntries(SIGNAL_KINDS.map((kind) => [kind, 0])) as Record<SignalKind, number>;

interface Interest {
  handlers: Set<(payload: string) => void>;
  subscription: Subscription | null;
}

export async function openNatsBus(url: string, options: FeedBusOptions): Promise<FeedBus> {
  // Loaded only when a bus is configured: a server without one never holds the NATS client.
  const { connect, Events } = await import('nats');
  const { logger } = options;
  const clock = options.clock ?? Date.now;
  const retryMs = options.retryMs ?? 1_000;
  const address = redactBusUrl(url);
  const connectionOptions = connectionOptionsOf(url);
  const interests = new Map<string, Interest>();
  const statusListeners = new Set<(up: boolean) => void>();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const stats = { outages: 0, published: counts(), received: counts(), dropped: 0 };
  let connection: NatsConnection | null = null;
  let up = false;
  let downSince: number | null = null;
  let closed = false;
  let wakeRetry: (() => void) | null = null;

  function tell(nowUp: boolean): void {
    for (const listener of [...statusListeners]) {
      try {
        listener(nowUp);
      } catch (error) {
        logger.warn({ err: error }, 'a feed bus status listener failed');
      }
    }
  }

  let connectedOnce = false;

  function becameUp(): void {
    if (up) return;
    up = true;
    if (!connectedOnce) {
      connectedOnce = true;
      logger.info({ feed_bus: address }, 'feed bus connected: processes signal each other through NATS');
    }
    if (downSince !== null) {
      logger.warn({ feed_bus: address, outage_ms: clock() - downSince }, 'feed bus available again');
      downSince = null;
    }
    tell(true);
  }

  function becameDown(error?: unknown): void {
    const wasUp = up;
    up = false;
    if (downSince !== null) return;
    downSince = clock();
    stats.outages += 1;
    logger.warn(
      { feed_bus: address, reason: error instanceof Error ? error.message : undefined },
      'feed bus unavailable: change feeds poll the store every second until it is back (slower, nothing lost)',
    );
    if (wasUp) tell(false);
  }

  function deliver(interest: Interest, subject: string, data: Uint8Array): void {
    const kind = kindOfSubject(subject);
    if (kind) stats.received[kind] += 1;
    const payload = decoder.decode(data);
    for (const handler of [...interest.handlers]) {
      try {
        handler(payload);
      } catch (error) {
        logger.warn({ err: error, subject }, 'a feed bus signal could not be handled');
      }
    }
  }

  function follow(nats: NatsConnection, subject: string, interest: Interest): void {
    interest.subscription = nats.subscribe(subject, {
      callback: (error, message) => {
        if (!error) deliver(interest, message.subject, message.data);
      },
    });
  }

  async function watchStatus(nats: NatsConnection): Promise<void> {
    for await (const status of nats.status()) {
      if (status.type === Events.Disconnect) becameDown();
      else if (status.type === Events.Reconnect) becameUp();
    }
  }

  /** Connects, and connects again whenever a connection ends for good; the client itself rides out short drops. */
  async function keepConnected(firstAttempt: () => void): Promise<void> {
    while (!closed) {
      let nats: NatsConnection;
      try {
        nats = await connect({
          ...connectionOptions,
          name: 'canvas-mcp',
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: RECONNECT_WAIT_MS,
          timeout: CONNECT_TIMEOUT_MS,
          pingInterval: PING_INTERVAL_MS,
          maxPingOut: MAX_PINGS_OUT,
        });
      } catch (error) {
        becameDown(error);
        firstAttempt();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, retryMs);
          timer.unref();
          wakeRetry = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeRetry = null;
        continue;
      }
      if (closed) {
        await nats.close().catch(() => undefined);
        return;
      }
      connection = nats;
      for (const [subject, interest] of interests) follow(nats, subject, interest);
      // Not awaited: the client's status iterator does not end when its connection closes (nats 2.29), and waiting
      // for it kept close() from ever resolving.
      void watchStatus(nats).catch(() => undefined);
      becameUp();
      firstAttempt();
      const ended = await nats.closed();
      connection = null;
      for (const interest of interests.values()) interest.subscription = null;
      if (!closed) becameDown(ended);
    }
  }

  // The server starts whether or not NATS answers: the first attempt is awaited (it fails fast when nothing listens),
  // later ones run in the background.
  let running: Promise<void> = Promise.resolve();
  await new Promise<void>((resolve) => {
    running = keepConnected(resolve).catch((error: unknown) => {
      logger.error({ err: error, feed_bus: address }, 'the feed bus stopped reconnecting');
      resolve();
    });
  });

  return {
    address,
    isUp: () => up,

    publish(subject, payload) {
      const kind = kindOfSubject(subject);
      if (!connection) {
        stats.dropped += 1;
        return;
      }
      try {
        // While the client reconnects it keeps what is published and sends it once back.
        connection.publish(subject, encoder.encode(payload));
        if (kind) stats.published[kind] += 1;
      } catch (error) {
        stats.dropped += 1;
        logger.debug({ err: error, subject }, 'a feed bus signal was not published');
      }
    },

    subscribe(subject, onMessage) {
      let interest = interests.get(subject);
      if (!interest) {
        interest = { handlers: new Set(), subscription: null };
        interests.set(subject, interest);
        if (connection) follow(connection, subject, interest);
      }
      const handler = (payload: string) => onMessage(payload);
      interest.handlers.add(handler);
      const held = interest;
      return () => {
        held.handlers.delete(handler);
        if (held.handlers.size > 0 || interests.get(subject) !== held) return;
        interests.delete(subject);
        try {
          held.subscription?.unsubscribe();
        } catch {
          // The connection closed meanwhile: nothing to unsubscribe from.
        }
      };
    },

    async settled() {
      if (!up || !connection) return;
      await connection.flush().catch(() => undefined);
    },

    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },

    stats: () => ({
      up,
      outages: stats.outages,
      subscriptions: interests.size,
      published: { ...stats.published },
      received: { ...stats.received },
      dropped: stats.dropped,
    }),

    async close() {
      closed = true;
      wakeRetry?.();
      statusListeners.clear();
      await connection?.close().catch(() => undefined);
      await running;
    },
  };
}
