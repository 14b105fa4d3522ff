import type { Logger } from '../../shared/logger.js';
import { canvasSubject, type FeedBus } from '../../store/feed-bus/index.js';
import type { FeedHub } from './feed-hub.js';

/** While the bus is away, every watched canvas is read this often: slower delivery, nothing lost. */
export const BUS_DOWN_POLL_MS = 1_000;

/**
 * The change feed's signals on the feed bus (`--feed-bus`): this process follows the layout and states subjects of
 * exactly the canvases it has subscribers for, from the first one's arrival to the last one's leaving, so writes to
 * other canvases never reach it. Whatever a signal says, the hub re-reads the canvas (its revision and states
 * version), so a lost or repeated signal costs nothing but time. While the bus is down the watched canvases are polled;
 * when it comes back each is read once more.
 */
export function followWatchedCanvases(
  bus: FeedBus,
  hub: FeedHub,
  logger: Logger,
  pollMs = BUS_DOWN_POLL_MS,
): () => void {
  const followed = new Map<string, () => void>();
  const keyOf = (projectId: string, canvasId: string) => `${projectId}\u0000${canvasId}`;

  function follow(projectId: string, canvasId: string): void {
    const key = keyOf(projectId, canvasId);
    if (followed.has(key)) return;
    const poke = () => hub.poke(projectId, canvasId);
    const releases = [
      bus.subscribe(canvasSubject('layout', projectId, canvasId), poke),
      bus.subscribe(canvasSubject('states', projectId, canvasId), poke),
    ];
    followed.set(key, () => {
      for (const release of releases) release();
    });
    // A write between the hub's first read of the canvas and NATS having this subscription was announced to nobody
    // here: once NATS has it, read the canvas again.
    bus
      .settled()
      .then(poke)
      .catch((error: unknown) => logger.debug({ err: error }, 'feed bus subscription not confirmed'));
  }

  function unfollow(projectId: string, canvasId: string): void {
    const key = keyOf(projectId, canvasId);
    followed.get(key)?.();
    followed.delete(key);
  }

  const stopWatching = hub.onWatchChange((projectId, canvasId, watched) =>
    watched ? follow(projectId, canvasId) : unfollow(projectId, canvasId),
  );
  for (const { projectId, canvasId } of hub.watchedCanvases()) follow(projectId, canvasId);
  // Signals published while the bus was away reached nobody.
  const stopStatus = bus.onStatus((up) => {
    if (up) hub.pokeAll();
  });
  const poll = setInterval(() => {
    if (!bus.isUp() && hub.watching()) hub.pokeAll();
  }, pollMs);
  poll.unref();

  return () => {
    clearInterval(poll);
    stopStatus();
    stopWatching();
    for (const release of followed.values()) release();
    followed.clear();
  };
}
