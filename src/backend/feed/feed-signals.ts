import type { Logger } from '../../shared/logger.js';
import { LAYOUT_EVENTS_CHANNEL } from '../../store/layout-writes/index.js';
import { STATES_EVENTS_CHANNEL } from '../../store/run-store.js';
import type { Store } from '../../store/store.js';
import { followWatchedCanvases } from './feed-bus-signals.js';
import type { FeedHub } from './feed-hub.js';

/**
 * What tells the change feed that a canvas may have changed: a write of this process at once; another process
 * through the feed bus when one is configured (only for the canvases watched here: feed-bus-signals.ts), else
 * through PostgreSQL NOTIFY; on SQLite, where processes share only the file, a poll of the database's commit counter
 * (PRAGMA data_version) every `pollMs` while anyone watches.
 */
export async function connectFeedSignals(
  store: Store,
  hub: FeedHub,
  logger: Logger,
  pollMs = 250,
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

  async function onNotify(): Promise<() => Promise<void>> {
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
