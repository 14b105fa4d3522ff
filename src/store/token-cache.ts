import type { TokenRecord } from './records.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/**
 * Token lookups remembered until a token changes (docs/scaling.md, "Measured at scale"), not until anything commits:
 * under writes the general read cache (src/store/read-cache.ts) is cleared by every commit, so each request read its
 * token again, and on PostgreSQL every lookup was a round trip of its own.
 *
 * A token row changes only through TokenStore.revokeToken, which calls `changed` in its transaction and `forget` once
 * it has committed, so the process that revoked refuses the token on its very next request. Other processes learn it:
 * - on SQLite, from `token_epoch` (migration 031), which that transaction adds one to: it is read again whenever
 *   another process has committed (the writer connection's data version; at most once per turn of the event loop),
 *   and a new epoch clears the cache; this process's own commits cost no read;
 * - on PostgreSQL, from a NOTIFY sent at commit, which every process LISTENs to; entries are remembered only while
 *   that subscription stands, cleared when its connection comes back (notifications sent meanwhile are lost), and
 *   never kept longer than MAX_AGE_MS in any case.
 * Unknown secrets are never remembered: each one is looked up (a guess must not fill the cache). Expiry is checked
 * on every request against the remembered `expires_at` (src/backend/auth/principal.ts), so it needs no signal.
 */

export const TOKEN_CHANGES_CHANNEL = 'canvas_tokens';
const MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface TokenCache {
  lookup(secretHash: string, load: () => Promise<TokenRecord | undefined>): Promise<TokenRecord | undefined>;
  /** Inside the transaction that changes a token row: tells every process, once it commits. */
  changed(tx: SqlExecutor): Promise<void>;
  /** After that transaction committed: this process forgets at once, not when its own signal comes back. */
  forget(): void;
}

export function createTokenCache(driver: SqlDriver, clock: () => number): TokenCache {
  const entries = new Map<string, { token: TokenRecord; at: number }>();
  /** SQLite: the other processes' commit version and the token epoch the entries were checked against. */
  let checkedVersion: number | null = null;
  let knownEpoch: number | null = null;
  /**
   * PostgreSQL: whether the LISTEN was made (nothing is remembered before). While its connection is lost and not yet
   * back, entries may miss a change: at most until it is back (all are forgotten then) or MAX_AGE_MS.
   */
  let listening = false;
  let subscribing: Promise<unknown> | null = null;
  /** Counts forgets: a lookup that was reading while one happened does not remember what it read. */
  let generation = 0;

  const forget = (): void => {
    generation += 1;
    entries.clear();
  };

  function subscribe(): Promise<unknown> {
    subscribing ??= driver
      .listen(TOKEN_CHANGES_CHANNEL, forget, forget)
      .then(() => {
        listening = true;
      })
      .catch(() => {
        // Not listening: every lookup goes to the database, as before the cache; the next lookup tries again.
        subscribing = null;
      });
    return subscribing;
  }

  /** Whether remembered entries may answer now (clearing them when another process changed a token). */
  async function trusted(): Promise<boolean> {
    if (driver.dialect === 'postgres') {
      // The first lookup waits for the LISTEN (one round trip, once per process).
      if (!listening) await subscribe();
      return listening;
    }
    // Only another process's commit can have changed a token behind this cache (this process forgets at once).
    const version = driver.otherProcessVersion();
    if (version === null) return false;
    if (version !== checkedVersion) {
      const row = await driver.get('SELECT n FROM token_epoch WHERE id = 1');
      const epoch = row ? Number(row.n) : null;
      if (epoch === null) return false;
      if (epoch !== knownEpoch) forget();
      knownEpoch = epoch;
      checkedVersion = version;
    }
    return true;
  }

  return {
    async lookup(secretHash, load) {
      if (!(await trusted())) return load();
      const now = clock();
      const remembered = entries.get(secretHash);
      if (remembered && now - remembered.at < MAX_AGE_MS && now >= remembered.at) return remembered.token;
      const readIn = generation;
      const token = await load();
      if (token && readIn === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(secretHash, { token, at: now });
      } else if (!token) {
        entries.delete(secretHash);
      }
      return token;
    },

    async changed(tx) {
      await tx.run('UPDATE token_epoch SET n = n + 1 WHERE id = 1');
      await driver.notify(tx, TOKEN_CHANGES_CHANNEL, '');
    },

    forget,
  };
}
