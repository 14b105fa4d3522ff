import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPresence, type Presence } from '../../src/backend/presence/presence.js';
import { createLogger } from '../../src/shared/logger.js';
import type { Store } from '../../src/store/store.js';
import { STORE_TARGETS, openTwoProcesses } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * An agent's presence across server processes: every call moves its marker at once in its own process, but what crosses
 * to the others (a NOTIFY on PostgreSQL) goes at most every 250 ms per agent and canvas, the newest at the end of the
 * wait, so an agent writing many nodes a second no longer costs a round trip per write.
 */

const postgres = STORE_TARGETS[1]!;
const CHANNEL = 'canvas_presence';
const AGENT = { key: 'agent:chat_1', name: 'Storyboard agent' };

describe.skipIf(!postgres.available)('agent presence signals between processes on PostgreSQL', () => {
  let here: Store;
  let elsewhere: Store;
  let close: () => Promise<void>;
  let writer: Presence;
  let watcher: Presence;

  beforeEach(async () => {
    ({ here, elsewhere, close } = await openTwoProcesses(postgres));
    const logger = createLogger('silent');
    writer = await createPresence(here, logger);
    watcher = await createPresence(elsewhere, logger);
  });
  afterEach(async () => {
    await writer?.close();
    await watcher?.close();
    await close?.();
  });

  it('sends a burst of calls as a signal a quarter second, and the other process ends on the newest node', async () => {
    const heard: string[] = [];
    const stop = await elsewhere.listen(CHANNEL, (payload) => heard.push(payload));
    try {
      const started = performance.now();
      for (let call = 1; call <= 40; call += 1) {
        writer.touchAgent('film', 'main', AGENT, `shot-${call}`);
        // Here, at once: the marker is on the node this call touched.
        expect(writer.list('film', 'main').find((entry) => entry.key === AGENT.key)?.node_id).toBe(`shot-${call}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const burstMs = performance.now() - started;
      // Elsewhere, once the last wait is over: the newest node, not an older one.
      await waitFor(
        async () => watcher.list('film', 'main').find((entry) => entry.key === AGENT.key)?.node_id,
        (node) => node === 'shot-40',
        5_000,
        10,
      );
      // One signal at the start of each 250 ms window the burst spanned, and the newest at the end of the last.
      expect(heard.length).toBeGreaterThanOrEqual(2);
      expect(heard.length).toBeLessThanOrEqual(Math.ceil(burstMs / 250) + 2);
      expect(heard.length).toBeLessThan(40);
    } finally {
      await stop();
    }
  });
});
