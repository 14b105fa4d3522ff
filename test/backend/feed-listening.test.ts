import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFeedHub, type FeedEvent, type FeedHub } from '../../src/backend/feed/feed-hub.js';
import { connectFeedSignals } from '../../src/backend/feed/feed-signals.js';
import { CanvasNode } from '../../src/contract/index.js';
import { createLogger } from '../../src/shared/logger.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { LAYOUT_EVENTS_CHANNEL } from '../../src/store/layout-writes/index.js';
import type { Store } from '../../src/store/store.js';
import { STORE_TARGETS, createSeparatePostgresDatabase, openTwoProcesses } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * With PostgreSQL NOTIFY as the change feed's signal (no feed bus), a process LISTENs only while a canvas is watched
 * on it (src/backend/feed/feed-signals.ts): a process with no feed open hears nothing of the writes of others, one
 * that opens a feed hears them from then on (a write made while its LISTEN was being set up included), and one whose
 * last subscriber left stops hearing them.
 */

/** A database of its own: NOTIFY channels span a database, and other files write to the shared one meanwhile. */
const postgres = { ...STORE_TARGETS[1]!, createDatabase: createSeparatePostgresDatabase };
/** A channel the watching process always listens on: what was sent before it on one connection arrived before it. */
const SYNC_CHANNEL = 'canvas_mcp_test_sync';

describe.skipIf(!postgres.available)('change feed signals on PostgreSQL NOTIFY, only while watched', () => {
  let writer: Store;
  let watcher: Store;
  let close: () => Promise<void>;
  let hub: FeedHub;
  let stopSignals: () => Promise<void>;
  let syncs = 0;
  let revision = 0;

  beforeEach(async () => {
    ({ here: writer, elsewhere: watcher, close } = await openTwoProcesses(postgres));
    await writer.projects.createWorkspace('ws');
    await writer.projects.createProject('film', 'ws');
    await writer.projects.createCanvas('film', 'board', false);
    hub = createFeedHub(watcher, createLogger('silent'));
    stopSignals = await connectFeedSignals(watcher, hub, createLogger('silent'), 250, 0);
    syncs = 0;
    revision = 0;
    await watcher.listen(SYNC_CHANNEL, () => {
      syncs += 1;
    });
  });
  afterEach(async () => {
    await stopSignals?.();
    await close?.();
  });

  const layoutHeard = () => watcher.driver.stats.notificationsReceived()[LAYOUT_EVENTS_CHANNEL] ?? 0;

  async function writeElsewhere(): Promise<void> {
    const node = CanvasNode.parse({
      id: `n${revision}`,
      type: 'textAnnotationNode',
      position: { x: 0, y: 0 },
      data: { content: 'x' },
    });
    const receipt = await writer.writes.createNode(
      { projectId: 'film', canvasId: 'board', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
      node,
    );
    revision = receipt.revision;
  }

  /** Layout notifications the watcher heard for one write of the other process (0 or 1). */
  async function heardOfOneWrite(): Promise<number> {
    const before = layoutHeard();
    const syncsBefore = syncs;
    await writeElsewhere();
    await writer.driver.run('SELECT pg_notify(?, ?)', [SYNC_CHANNEL, 'after the write']);
    await waitFor(
      async () => syncs,
      (count) => count > syncsBefore,
    );
    return layoutHeard() - before;
  }

  function subscribe(events: string[]) {
    let closed = false;
    return hub.subscribe('film', 'board', null, {
      send(event: FeedEvent) {
        events.push(event.frame.toString().split('\n', 1)[0]!);
        return true;
      },
      close() {
        closed = true;
      },
      drained: async () => undefined,
      get closed() {
        return closed;
      },
    });
  }

  it('hears nothing of the writes of other processes while no feed is open here', async () => {
    expect(await heardOfOneWrite()).toBe(0);
    expect(await heardOfOneWrite()).toBe(0);
  });

  it('tells a feed opened here of a write another process made while its LISTEN was being set up', async () => {
    // The other process's write lands after the hub read the canvas for its first subscriber, before LISTEN.
    const listen = watcher.listen.bind(watcher);
    watcher.listen = async (channel, onPayload, onResync) => {
      if (channel === LAYOUT_EVENTS_CHANNEL) await writeElsewhere();
      return listen(channel, onPayload, onResync);
    };
    const events: string[] = [];
    await subscribe(events);
    await waitFor(
      async () => events.filter((event) => event === 'event: layout').length,
      (layouts) => layouts === 1,
    );
    expect(await heardOfOneWrite()).toBe(1);
    await waitFor(
      async () => events.filter((event) => event === 'event: layout').length,
      (layouts) => layouts === 2,
    );
  });

  it('stops hearing once the last subscriber here has left', async () => {
    const events: string[] = [];
    const unsubscribe = await subscribe(events);
    await waitFor(heardOfOneWrite, (heard) => heard === 1);
    unsubscribe();
    await waitFor(heardOfOneWrite, (heard) => heard === 0);
    expect(await heardOfOneWrite()).toBe(0);
  });
});
