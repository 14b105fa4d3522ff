import type { Logger } from '../../shared/logger.js';
import { LAYOUT_EVENTS_CHANNEL } from '../../store/layout-writes/index.js';
import { STATES_EVENTS_CHANNEL } from '../../store/run-store.js';
import type { Store } from '../../store/store.js';
import { followWatchedCanvases } from './feed-bus-signals.js';
import type { FeedHub } from './feed-hub.js';

/** How long a process keeps listening after its last feed subscriber left (a page reloading comes straight back). */
export const LISTEN_GRACE_MS = 30_000;

/**
 * What tells the change feed that a canvas may have changed: a write of this process at once; another process
 * through the feed bus when one is configured (only for the canvases watched here: feed-bus-signals.ts), else
 * through PostgreSQL NOTIFY (only while a canvas is watched here); on SQLite, where processes share only the file, a
 * poll of the database's commit counter (PRAGMA data_version) every `pollMs` while anyone watches.
 */
export async function connectFeedSignals(
  store: Store,
  hub: FeedHub,
  logger: Logger,
  pollMs = 250,
  listenGraceMs = LISTEN_GRACE_MS,
): Promise<() => Promise<void>> {
  const stopWrites = store.writes.onCommitted((write) => hub.committed(write));
  const canvasOf = (payload: string) => {
    const [projectId, canvasId] = payload.slice(payload.indexOf(' ') + 1).split('/') as [string, string];
    return { projectId, canvasId };
  };
  const stopOthers = store.bus ? await onBus(store.bus) : await onNotify();

  async function onBus(bus: NonNullable<Store['bus']>): Promise<() => Promise<void>> {
    const stop = followWatchedCanvases(bus, hub, logger);
    return async () => stop();
  }

  /**
   * NOTIFY reaches every process that LISTENs, for every write anywhere, so a process listens only while it watches
   * a canvas: from its first feed subscriber to `listenGraceMs` after the last one left. A server nobody follows a
   * canvas on (an API server, one agents write through) hears nothing of other processes' writes, nor of its own: on
   * one server that was 6–9% of a create's CPU (docs/scaling.md). A write committed between a first subscriber's read
   * of its canvas and the LISTEN being in place was announced to nobody here: once listening, every watched canvas is
   * read again, as after a reconnect.
   */
  async function onNotify(): Promise<() => Promise<void>> {
    let stopListening: (() => Promise<void>) | null = null;
    let closed = false;
    let changing: Promise<void> = Promise.resolve();
    let graceTimer: NodeJS.Timeout | undefined;

    async function listenToBoth(): Promise<() => Promise<void>> {
      const stopLayout = await store.listen(
        LAYOUT_EVENTS_CHANNEL,
        (payload) => {
          const { projectId, canvasId } = canvasOf(payload);
          hub.poke(projectId, canvasId);
        },
        () => hub.pokeAll(),
      );
      const stopStates = await store.listen(STATES_EVENTS_CHANNEL, (payload) => {
        const [projectId, canvasId] = payload.split('/') as [string, string];
        hub.poke(projectId, canvasId);
      });
      return async () => {
        await stopLayout();
        await stopStates();
      };
    }

    /** Listens or stops, one change at a time, to match whether anything is watched now. */
    function follow(): Promise<void> {
      changing = changing
        .then(async () => {
          const wanted = !closed && hub.watching();
          if (wanted && stopListening === null) {
            stopListening = await listenToBoth();
            hub.pokeAll();
          } else if (!wanted && stopListening !== null) {
            const stop = stopListening;
            stopListening = null;
            await stop();
          }
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'change feed signals: LISTEN failed'));
      return changing;
    }

    const stopWatching = hub.onWatchChange(() => {
      clearTimeout(graceTimer);
      graceTimer = undefined;
      if (hub.watching()) {
        void follow();
        return;
      }
      graceTimer = setTimeout(() => void follow(), listenGraceMs);
      graceTimer.unref();
    });
    await follow();
    return async () => {
      closed = true;
      stopWatching();
      clearTimeout(graceTimer);
      await follow();
    };
  }

  // The counter is followed even while nobody watches: a change between a subscription and the next poll must not
  // become the baseline unnoticed. Reading it costs one PRAGMA.
  let version: number | null = await store.readVersion().catch(() => null);
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    store
      .readVersion()
      .then((current) => {
        if (current !== null && current !== version) {
          version = current;
          if (hub.watching()) hub.pokeAll();
        }
      })
      .catch((error: unknown) => logger.debug({ err: error }, 'change feed poll failed'))
      .finally(() => {
        polling = false;
      });
  }, pollMs);
  timer.unref();

  return async () => {
    clearInterval(timer);
    stopWrites();
    await stopOthers();
  };
}
