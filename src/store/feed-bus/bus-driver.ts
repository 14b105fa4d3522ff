import type { SqlDriver, SqlExecutor } from '../sql-driver.js';
import type { FeedBus } from './nats-bus.js';
import { CHANNEL_ROUTES } from './subjects.js';

/**
 * The store's signals through the feed bus instead of PostgreSQL NOTIFY: the same `notify` and `listen` the store's
 * modules already call, routed by channel (src/store/feed-bus/subjects.ts). NOTIFY is transactional and NATS is not,
 * so a signal given inside a transaction is held and published once the transaction has committed (and dropped if it
 * rolls back, or is retried and given again); the change log is what readers trust, the signal only says "look".
 * A channel the bus does not carry keeps the database's NOTIFY.
 */
export function signalsThroughBus(driver: SqlDriver, bus: FeedBus): SqlDriver {
  /** Signals given inside each transaction in progress, by the executor the transaction's work was handed. */
  const held = new WeakMap<SqlExecutor, Array<{ subject: string; payload: string }>>();

  return {
    ...driver,
    async transaction(work) {
      let committed: Array<{ subject: string; payload: string }> = [];
      const result = await driver.transaction(async (tx) => {
        // A retried transaction runs its work again with a new executor: only the attempt that committed counts.
        const signals: Array<{ subject: string; payload: string }> = [];
        held.set(tx, signals);
        try {
          const value = await work(tx);
          committed = signals;
          return value;
        } finally {
          held.delete(tx);
        }
      });
      for (const signal of committed) bus.publish(signal.subject, signal.payload);
      return result;
    },

    async notify(tx, channel, payload) {
      const route = CHANNEL_ROUTES.get(channel);
      if (!route) return driver.notify(tx, channel, payload);
      const subject = route.subjectOf(payload);
      if (subject === null) return;
      const signals = held.get(tx);
      // Outside a transaction (a statement already committed) the signal goes at once.
      if (signals) signals.push({ subject, payload });
      else bus.publish(subject, payload);
    },

    async listen(channel, onPayload, onResync) {
      const route = CHANNEL_ROUTES.get(channel);
      if (!route) return driver.listen(channel, onPayload, onResync);
      const release = bus.subscribe(route.listenSubject, onPayload);
      // Signals published while the bus was away reached nobody: the listener re-reads once it is back.
      const stopStatus = bus.onStatus((up) => {
        if (up) onResync?.();
      });
      return async () => {
        release();
        stopStatus();
      };
    },

    async close() {
      await driver.close();
      await bus.close();
    },
  };
}
