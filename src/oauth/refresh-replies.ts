import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { SqlDriver } from '../store/sql-driver.js';

/**
 * Refresh-token rotation with a grace that is idempotent: a client that sends one refresh token twice within the grace
 * (two requests racing, a retry after a dropped answer) gets the very pair the first use produced, never a second
 * branch of tokens. The first answer is kept for the grace, encrypted under a key derived from the refresh token itself
 * (so a copy of the database holds nothing usable) and found by the token's hash. A use after the grace is a replay:
 * oidc-provider ends the whole grant, as before.
 *
 * A second request that arrives while the first is still being answered waits for it (a `pending` row claimed by the
 * first, across every server of the database).
 */

const MODEL = 'RefreshReply';
const PENDING = 'pending';
const WAIT_MS = 5000;
const POLL_MS = 25;

const keyOf = (refreshToken: string) =>
  Buffer.from(hkdfSync('sha256', refreshToken, 'canvas-mcp', 'refresh-reply', 32));
export const replyIdOf = (refreshToken: string) =>
  createHash('sha256').update(`refresh-reply:${refreshToken}`).digest('base64url');

function seal(refreshToken: string, body: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(refreshToken), iv);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

function open(refreshToken: string, payload: string): string | null {
  const [iv, tag, sealed] = payload.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !sealed) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(refreshToken), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export interface RefreshReplies {
  /**
   * Claims the first use of a refresh token: 'first' when this request answers it; otherwise the answer the first use
   * gave (the same JSON), or null when it gave none in time (the request then goes on, and a replay ends the grant).
   */
  claim(refreshToken: string): Promise<'first' | { body: string } | null>;
  /** Keeps the first use's answer for the grace. */
  remember(refreshToken: string, body: string): Promise<void>;
  /** The first use failed: later uses go through as they come. */
  release(refreshToken: string): Promise<void>;
}

export function createRefreshReplies(driver: SqlDriver, graceSeconds: number, clock: () => number): RefreshReplies {
  const expiresAt = () => clock() + graceSeconds * 1000;
  async function read(id: string): Promise<string | null> {
    const row = await driver.get('SELECT payload FROM oauth_records WHERE model = ? AND id = ? AND expires_at > ?', [
      MODEL,
      id,
      clock(),
    ]);
    return row ? String(row.payload) : null;
  }
  return {
    async claim(refreshToken) {
      const id = replyIdOf(refreshToken);
      // An expired row of an earlier use is gone for good: a later use is a replay.
      await driver.run('DELETE FROM oauth_records WHERE model = ? AND id = ? AND expires_at <= ?', [
        MODEL,
        id,
        clock(),
      ]);
      const { changes } = await driver.run(
        `INSERT INTO oauth_records (model, id, payload, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (model, id) DO NOTHING`,
        [MODEL, id, PENDING, expiresAt()],
      );
      if (changes === 1) return 'first';
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const payload = await read(id);
        if (payload === null) return null;
        if (payload !== PENDING) {
          const body = open(refreshToken, payload);
          return body === null ? null : { body };
        }
        if (Date.now() > deadline) return null;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    async remember(refreshToken, body) {
      await driver.run('UPDATE oauth_records SET payload = ?, expires_at = ? WHERE model = ? AND id = ?', [
        seal(refreshToken, body),
        expiresAt(),
        MODEL,
        replyIdOf(refreshToken),
      ]);
    },
    async release(refreshToken) {
      await driver.run('DELETE FROM oauth_records WHERE model = ? AND id = ?', [MODEL, replyIdOf(refreshToken)]);
    },
  };
}
