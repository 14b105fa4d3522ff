import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { createFeedHub, type FeedEvent } from '../../src/backend/feed/feed-hub.js';
import { createLogger } from '../../src/shared/logger.js';
import type { Store } from '../../src/store/store.js';
import { STORE_TARGETS, openTestStore } from '../support/stores.js';

/** The feed hub on a real store: a reader that cannot keep up is cut off with `reset`, and memory does not grow. */

describe('the change feed hub', () => {
  let store: Store;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = await openTestStore(STORE_TARGETS[0]!));
    await store.projects.createWorkspace('w');
    await store.projects.createProject('p', 'w');
    await store.projects.createCanvas('p', 'c', false);
  });
  afterAll(async () => close());

  it('cuts a subscriber whose buffer is full with a reset, and keeps serving the others', async () => {
    const hub = createFeedHub(store, createLogger('silent'));
    store.writes.onCommitted((write) => hub.committed(write));
    const slow = { received: [] as string[], closed: false, capacity: 3 };
    const fast = { received: [] as string[], closed: false };
    const frameEvent = (event: FeedEvent) => event.frame.toString().split('\n', 1)[0]!;
    await hub.subscribe('p', 'c', 0, {
      send(event) {
        if (slow.received.length >= slow.capacity && event.event !== 'reset') return false;
        slow.received.push(frameEvent(event));
        return true;
      },
      close() {
        slow.closed = true;
      },
      drained: async () => undefined,
      get closed() {
        return slow.closed;
      },
    });
    await hub.subscribe('p', 'c', 0, {
      send(event) {
        fast.received.push(frameEvent(event));
        return true;
      },
      close() {
        fast.closed = true;
      },
      drained: async () => undefined,
      get closed() {
        return fast.closed;
      },
    });
    for (let revision = 0; revision < 6; revision += 1) {
      const node = CanvasNode.parse({
        id: `n${revision}`,
        type: 'textAnnotationNode',
        position: { x: 0, y: 0 },
        data: { content: 'x' },
      });
      await store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
        node,
      );
    }
    expect(slow.received).toEqual(['event: layout', 'event: layout', 'event: layout', 'event: reset']);
    expect(slow.closed).toBe(true);
    expect(fast.received).toEqual(Array.from({ length: 6 }, () => 'event: layout'));
    expect(hub.subscriberCount()).toBe(1);
  });

  it('keeps delivering to a subscriber that came back after closeAll, when an old subscriber leaves afterwards', async () => {
    const hub = createFeedHub(store, createLogger('silent'));
    store.writes.onCommitted((write) => hub.committed(write));
    const sink = () => ({
      received: [] as string[],
      send(event: FeedEvent) {
        this.received.push(event.event);
        return true;
      },
      close() {},
      drained: async () => undefined,
      closed: false,
    });
    const old = sink();
    const leaveOld = await hub.subscribe('p', 'c', null, old);
    hub.closeAll('the stream drops');
    const back = sink();
    await hub.subscribe('p', 'c', null, back);
    // The old subscriber's socket reports its close only now, after the new one joined.
    leaveOld();
    const revision = (await store.layout.readCanvas('p', 'c'))!.revision;
    const node = CanvasNode.parse({
      id: 'after-drop',
      type: 'textAnnotationNode',
      position: { x: 0, y: 0 },
      data: { content: 'x' },
    });
    await store.writes.createNode(
      { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
      node,
    );
    expect(back.received).toEqual(['layout']);
    expect(hub.subscriberCount()).toBe(1);
  });
});
