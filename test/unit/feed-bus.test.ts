import { describe, expect, it } from 'vitest';
import { signalsThroughBus, type FeedBus } from '../../src/store/feed-bus/index.js';
import { connectionOptionsOf, redactBusUrl } from '../../src/store/feed-bus/nats-bus.js';
import { canvasSubject, kindOfSubject } from '../../src/store/feed-bus/subjects.js';
import { LAYOUT_EVENTS_CHANNEL } from '../../src/store/layout-writes/index.js';
import { RUN_EVENTS_CHANNEL, STATES_EVENTS_CHANNEL } from '../../src/store/run-store.js';
import type { SqlDriver, SqlExecutor } from '../../src/store/sql-driver.js';

/**
 * The feed bus's pure parts: subjects that any id fits in, addresses logged without credentials, and the store's
 * signals held until their transaction commits. The bus against a real NATS and PostgreSQL: test/ops/feed-bus.test.ts.
 */

function recordingBus(): FeedBus & { published: Array<[string, string]> } {
  const published: Array<[string, string]> = [];
  return {
    published,
    address: 'nats://test',
    isUp: () => true,
    publish: (subject, payload) => void published.push([subject, payload]),
    subscribe: () => () => undefined,
    settled: async () => undefined,
    onStatus: () => () => undefined,
    stats: () => {
      throw new Error('not used');
    },
    close: async () => undefined,
  };
}

/** A driver whose transactions run their work on a fresh executor each, and whose own NOTIFY records what it got. */
function fakeDriver(notified: string[]): SqlDriver {
  const executor = (): SqlExecutor => ({
    all: async () => [],
    get: async () => undefined,
    run: async () => ({ changes: 0 }),
    exec: async () => undefined,
  });
  return {
    ...executor(),
    dialect: 'postgres',
    forUpdate: '',
    forUpdateSkipLocked: '',
    stats: { pool: () => null, onWriterWait: () => undefined, notificationsReceived: () => ({}) },
    transaction: (work) => work(executor()),
    readSnapshot: (work) => work(executor()),
    readVersion: async () => null,
    otherProcessVersion: () => null,
    notify: async (_tx, channel) => void notified.push(channel),
    listen: async () => async () => undefined,
    signalLocal: () => undefined,
    onLocalCommit: () => () => undefined,
    close: async () => undefined,
  };
}

describe('feed bus subjects', () => {
  it('writes ids as base64url tokens, so dots, wildcards, spaces and any letter stay inside one token', () => {
    const subject = canvasSubject('layout', 'a.b>*c é', 'board 1');
    expect(subject.split('.')).toHaveLength(4);
    expect(subject).toMatch(/^cmcp\.layout\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(canvasSubject('layout', 'film', 'board')).toBe('cmcp.layout.ZmlsbQ.Ym9hcmQ');
    expect(canvasSubject('layout', 'ab', 'c')).not.toBe(canvasSubject('layout', 'a', 'bc'));
    expect(kindOfSubject(subject)).toBe('layout');
    expect(kindOfSubject('cmcp.runs')).toBe('runs');
    expect(kindOfSubject('elsewhere.thing')).toBeNull();
  });

  it('logs an address without its credentials, and hands them to the client as options', () => {
    expect(redactBusUrl('nats://user:secret@nats.internal:4222,nats://token@b:4222')).toBe(
      'nats://nats.internal:4222,nats://b:4222',
    );
    expect(connectionOptionsOf('nats://user:s%40cret@h:4222')).toMatchObject({
      servers: ['h:4222'],
      user: 'user',
      pass: 's@cret',
    });
    expect(connectionOptionsOf('nats://tok@h:4222,nats://k:4223')).toMatchObject({
      servers: ['h:4222', 'k:4223'],
      token: 'tok',
    });
  });
});

describe('signals through the bus', () => {
  it('publishes a transaction’s signals after it commits, to the canvas’s subject, and never NOTIFYs', async () => {
    const bus = recordingBus();
    const notified: string[] = [];
    const driver = signalsThroughBus(fakeDriver(notified), bus);
    await driver.transaction(async (tx) => {
      await driver.notify(tx, LAYOUT_EVENTS_CHANNEL, '7 film/board');
      await driver.notify(tx, STATES_EVENTS_CHANNEL, 'film/board');
      // Nothing leaves before the commit.
      expect(bus.published).toEqual([]);
    });
    expect(bus.published).toEqual([
      [canvasSubject('layout', 'film', 'board'), '7 film/board'],
      [canvasSubject('states', 'film', 'board'), 'film/board'],
    ]);
    expect(notified).toEqual([]);
  });

  it('publishes nothing for a transaction that rolled back', async () => {
    const bus = recordingBus();
    const driver = signalsThroughBus(fakeDriver([]), bus);
    await expect(
      driver.transaction(async (tx) => {
        await driver.notify(tx, RUN_EVENTS_CHANNEL, 'queued:run-1');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(bus.published).toEqual([]);
  });

  it('publishes at once outside a transaction; a channel the bus does not carry stays on NOTIFY', async () => {
    const bus = recordingBus();
    const notified: string[] = [];
    const driver = signalsThroughBus(fakeDriver(notified), bus);
    await driver.notify(driver, RUN_EVENTS_CHANNEL, 'cancel:run-2');
    expect(bus.published).toEqual([['cmcp.runs', 'cancel:run-2']]);
    await driver.notify(driver, 'some_other_channel', 'x');
    expect(notified).toEqual(['some_other_channel']);
  });
});
