import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadServeConfig } from '../../src/config/index.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { openEvents } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { seedWorld, type World } from './world.js';

/**
 * An idle change feed sends a comment line at the configured heartbeat interval, so proxies do not close it. The
 * interval is a server setting (feedHeartbeatMs, CANVAS_MCP_FEED_HEARTBEAT_MS, --feed-heartbeat-ms). The heartbeat does
 * not depend on the store: SQLite only.
 */

const HEARTBEAT_MS = 300;
const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('change feed heartbeats', () => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { feedHeartbeatMs: HEARTBEAT_MS });
    world = await seedWorld(server.store, { kind: 'backend' });
  });
  afterAll(async () => server?.close());

  it('sends ": keep-alive" on an idle feed at the configured interval', async () => {
    const opened = Date.now();
    const reader = await openEvents(`${server.url}/api/v2/projects/p1/canvases/c1/events`, {
      authorization: `Bearer ${world.tokens.editor.secret}`,
    });
    try {
      expect(reader.status).toBe(200);
      await waitFor(
        async () => reader.comments.length,
        (count) => count >= 3,
        5_000,
      );
      const arrivals = reader.comments.slice(0, 3);
      expect(arrivals.map((comment) => comment.text)).toEqual(['keep-alive', 'keep-alive', 'keep-alive']);
      // Timers never fire early by more than a tick; a loaded machine may make them late, never 15 s (the default) late.
      const times = [opened, ...arrivals.map((comment) => comment.at)];
      const gaps = times.slice(1).map((at, index) => at - times[index]!);
      for (const gap of gaps) {
        expect(gap, `keep-alive gaps ${JSON.stringify(gaps)} ms`).toBeGreaterThanOrEqual(HEARTBEAT_MS - 50);
        expect(gap, `keep-alive gaps ${JSON.stringify(gaps)} ms`).toBeLessThan(HEARTBEAT_MS * 5);
      }
      expect(reader.events).toEqual([]);
    } finally {
      reader.close();
    }
  });

  it('reads the interval from CANVAS_MCP_FEED_HEARTBEAT_MS, defaults to 15 s and refuses a value below 100 ms', () => {
    expect(loadServeConfig({}, {}).feedHeartbeatMs).toBe(15_000);
    expect(loadServeConfig({}, { CANVAS_MCP_FEED_HEARTBEAT_MS: '2500' }).feedHeartbeatMs).toBe(2_500);
    expect(loadServeConfig({ feedHeartbeatMs: '400' }, { CANVAS_MCP_FEED_HEARTBEAT_MS: '2500' }).feedHeartbeatMs).toBe(
      400,
    );
    const tooShort = () => loadServeConfig({}, { CANVAS_MCP_FEED_HEARTBEAT_MS: '10' });
    expect(tooShort).toThrow(ConfigError);
    expect(tooShort).toThrow('--feed-heartbeat-ms (CANVAS_MCP_FEED_HEARTBEAT_MS)');
  });
});
