import pg from 'pg';

/**
 * LISTEN on one dedicated connection for every channel of this process, reconnecting by itself when the database
 * goes away (a restart, a network cut). Notifications sent while it was disconnected are lost, so after each
 * reconnect every subscriber's `onResync` runs: it re-reads whatever it would otherwise have been told.
 */

export interface ChannelSubscriber {
  onPayload(payload: string): void;
  onResync?(): void;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 1_000;

export function createPostgresListener(connectionString: string) {
  const channels = new Map<string, Set<ChannelSubscriber>>();
  /** Notifications this process received, by channel (/metrics: deliveries per write grow with processes). */
  const received = new Map<string, number>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = FIRST_RETRY_MS;
  let closed = false;

  function listenSql(channel: string, listen: boolean): string {
    return `${listen ? 'LISTEN' : 'UNLISTEN'} ${pg.escapeIdentifier(channel)}`;
  }

  function lost(from: pg.Client): void {
    // Only the installed connection matters: a candidate that failed, or one we ended, reports nothing.
    if (from !== client) return;
    client = null;
    from.removeAllListeners('notification');
    from.end().catch(() => undefined);
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer !== undefined || connecting !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          retryMs = FIRST_RETRY_MS;
          for (const subscribers of channels.values()) for (const subscriber of subscribers) subscriber.onResync?.();
        },
        () => {
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
          scheduleReconnect();
        },
      );
    }, retryMs);
    retryTimer.unref();
  }

  function connect(): Promise<pg.Client> {
    connecting ??= (async () => {
      const candidate = new pg.Client({ connectionString });
      // Errors of this connection are handled by reconnecting; an unhandled 'error' would end the process.
      candidate.on('error', () => lost(candidate));
      candidate.on('end', () => lost(candidate));
      candidate.on('notification', (message) => {
        if (message.payload === undefined) return;
        received.set(message.channel, (received.get(message.channel) ?? 0) + 1);
        for (const subscriber of channels.get(message.channel) ?? []) subscriber.onPayload(message.payload);
      });
      try {
        await candidate.connect();
        for (const channel of channels.keys()) await candidate.query(listenSql(channel, true));
      } catch (error) {
        candidate.removeAllListeners();
        candidate.on('error', () => undefined);
        await candidate.end().catch(() => undefined);
        throw error;
      }
      if (closed) {
        await candidate.end().catch(() => undefined);
        throw new Error('listener closed');
      }
      client = candidate;
      return candidate;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  return {
    received: (): Record<string, number> => Object.fromEntries(received),

    /** Subscribes; when the database is away now, the subscription starts working as soon as it is back. */
    async listen(channel: string, subscriber: ChannelSubscriber): Promise<() => Promise<void>> {
      const isNew = !channels.has(channel);
      const subscribers = channels.get(channel) ?? new Set<ChannelSubscriber>();
      subscribers.add(subscriber);
      channels.set(channel, subscribers);
      try {
        const active = client ?? (await connect());
        if (isNew && active === client) await active.query(listenSql(channel, true));
      } catch {
        scheduleReconnect();
      }
      return async () => {
        subscribers.delete(subscriber);
        if (subscribers.size === 0 && channels.get(channel) === subscribers) {
          channels.delete(channel);
          await client?.query(listenSql(channel, false)).catch(() => undefined);
        }
      };
    },

    async close(): Promise<void> {
      closed = true;
      clearTimeout(retryTimer);
      const current = client ?? (await connecting?.catch(() => null)) ?? null;
      client = null;
      if (current) {
        current.removeAllListeners('end');
        await current.end().catch(() => undefined);
      }
    },
  };
}
