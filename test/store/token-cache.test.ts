import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { STORE_TARGETS, openTwoProcesses } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Token lookups are remembered until a token changes (src/store/token-cache.ts), not until any commit: a revocation is
 * refused at once by the process that made it and, on the same database, by every other process as soon as it hears of
 * it (SQLite: the token epoch, read on the next turn; PostgreSQL: NOTIFY), well within the five seconds after which
 * nothing remembered is trusted anyway.
 */

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.each(STORE_TARGETS)('token lookups remembered until a token changes: $name', (target) => {
  let here: Store;
  let elsewhere: Store;
  let close: (() => Promise<void>) | undefined;
  let tokenId: string;
  let secret: string;

  beforeEach(async () => {
    if (!target.available) return;
    // A second process on the same database (its own connections, its own cache).
    ({ here, elsewhere, close } = await openTwoProcesses(target));
    await here.projects.createWorkspace('ws');
    await here.projects.createProject('film', 'ws');
    ({ tokenId, secret } = await here.tokens.createToken({
      name: 'agent',
      kind: 'agent',
      role: 'editor',
      projects: ['film'],
      workspaces: [],
      actor: null,
      expiresAt: null,
    }));
  });
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  /** Renames the token behind the cache's back: a write no token change announces. */
  const renameUnannounced = (name: string) =>
    here.driver.run('UPDATE tokens SET name = ? WHERE id = ?', [name, tokenId]);

  it.skipIf(!target.available)(
    'answers a remembered token without reading it again, though other rows commit',
    async () => {
      await elsewhere.tokens.findTokenBySecret(secret);
      expect((await elsewhere.tokens.findTokenBySecret(secret))?.name).toBe('agent');
      await renameUnannounced('renamed');
      await nextTurn();
      expect((await elsewhere.tokens.findTokenBySecret(secret))?.name).toBe('agent');
      // An unknown secret is never remembered: once issued, it is found.
      expect(await elsewhere.tokens.findTokenBySecret('cmcp_not_issued')).toBeUndefined();
    },
  );

  it.skipIf(!target.available)('refuses a token on the revoking process’s very next lookup', async () => {
    await here.tokens.findTokenBySecret(secret);
    expect((await here.tokens.findTokenBySecret(secret))?.revokedAt).toBeNull();
    await here.tokens.revokeToken(tokenId);
    expect((await here.tokens.findTokenBySecret(secret))?.revokedAt).not.toBeNull();
  });

  it.skipIf(!target.available)(
    'tells every other process on the database, which forgets what it remembered',
    async () => {
      await elsewhere.tokens.findTokenBySecret(secret);
      await renameUnannounced('renamed');
      expect((await elsewhere.tokens.findTokenBySecret(secret))?.revokedAt).toBeNull();
      await here.tokens.revokeToken(tokenId);
      // Well before the five seconds after which a remembered token is read again regardless.
      const seen = await waitFor(
        () => elsewhere.tokens.findTokenBySecret(secret),
        (token) => token?.revokedAt !== null,
        2_000,
        5,
      );
      expect(seen?.name).toBe('renamed');
    },
  );
});
