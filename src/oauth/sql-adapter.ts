import type { Adapter, AdapterPayload } from 'oidc-provider';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseRows } from '../store/records.js';
import type { SqlDriver } from '../store/sql-driver.js';

/**
 * oidc-provider's storage (migration 010, `oauth_records`) on our store's database, SQLite or PostgreSQL, so every
 * server process on one database shares clients, codes, tokens and grants. Single-use records (authorization codes,
 * refresh tokens) are consumed atomically: two processes never redeem one code. A refresh token used twice within its
 * grace is answered before it reaches the provider (src/oauth/refresh-replies.ts); any other second use is a replay,
 * which ends the whole grant.
 */

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);
/**
 * Records whose id is itself the credential (the opaque token or code a client presents): stored under
 * the SHA-256 of the id and without it in the payload, so a copy of the database holds no usable token. The id is
 * put back into the payload when the credential's holder presents it.
 */
const HASHED = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

const RecordRow = z.object({ payload: z.string(), consumed_at: z.coerce.number().nullable() });

export interface SqlAdapterOptions {
  /** oidc-provider's InvalidGrant error (passed in: the module is imported once, lazily: src/oauth/oidc-module.ts). */
  invalidGrant: new (detail: string) => Error;
  clock?: () => number;
}

export function sqlAdapterOf(driver: SqlDriver, options: SqlAdapterOptions) {
  const clock = options.clock ?? Date.now;

  return class SqlAdapter implements Adapter {
    private readonly hashed: boolean;

    constructor(readonly model: string) {
      this.hashed = HASHED.has(model);
    }

    private key(id: string): string {
      return this.hashed ? createHash('sha256').update(id).digest('base64url') : id;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiresAt = typeof expiresIn === 'number' ? clock() + expiresIn * 1000 : null;
      await driver.run(
        `INSERT INTO oauth_records (model, id, payload, grant_id, uid, expires_at, consumed_at) VALUES (?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, expires_at = excluded.expires_at`,
        [
          this.model,
          this.key(id),
          JSON.stringify(this.hashed ? { ...payload, jti: undefined } : payload),
          GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null,
          this.model === 'Session' ? (payload.uid ?? null) : null,
          expiresAt,
        ],
      );
    }

    private async findWhere(column: 'id' | 'uid', value: string): Promise<AdapterPayload | undefined> {
      const row = await driver.get(
        `SELECT id, payload, consumed_at FROM oauth_records WHERE model = ? AND ${column} = ? AND (expires_at IS NULL OR expires_at > ?)`,
        [this.model, column === 'id' ? this.key(value) : value, clock()],
      );
      if (!row) return undefined;
      const { payload, consumed_at: consumedAt } = RecordRow.parse(row);
      const stored = JSON.parse(payload) as AdapterPayload;
      // A hashed record is found by its id only when its holder presents it: that is the id to put back.
      const parsed = this.hashed && column === 'id' ? { ...stored, jti: value } : stored;
      if (consumedAt === null) return parsed;
      return { ...parsed, consumed: consumedAt };
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      const { changes } = await driver.run(
        'UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL',
        [Math.floor(clock() / 1000), this.model, this.key(id)],
      );
      // Lost a race with another request or process: refuse rather than issue a second set of tokens.
      if (changes === 0 && SINGLE_USE.has(this.model)) throw new options.invalidGrant('grant already used');
    }

    async destroy(id: string): Promise<void> {
      await driver.run('DELETE FROM oauth_records WHERE model = ? AND id = ?', [this.model, this.key(id)]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await driver.run('DELETE FROM oauth_records WHERE model = ? AND grant_id = ?', [this.model, grantId]);
    }
  };
}

const ClientRow = z.object({ id: z.string(), payload: z.string() });
const IssuedAt = z.looseObject({ client_id_issued_at: z.number().optional() });

/**
 * Drops expired records, and clients registered dynamically that no grant has used for `clientIdleMs` (registration is
 * anonymous, so unused clients must not pile up). Any one process, now and then.
 */
export async function sweepOAuthRecords(driver: SqlDriver, now: number, clientIdleMs: number): Promise<number> {
  let dropped = (await driver.run('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at < ?', [now]))
    .changes;
  const idleSince = now - clientIdleMs;
  for (const row of parseRows(
    ClientRow,
    await driver.all("SELECT id, payload FROM oauth_records WHERE model = 'Client'"),
  )) {
    const issuedAt = (IssuedAt.safeParse(JSON.parse(row.payload)).data?.client_id_issued_at ?? 0) * 1000;
    if (issuedAt > idleSince) continue;
    const used = await driver.get(
      'SELECT 1 AS used FROM oauth_grants WHERE client_id = ? AND ended_at IS NULL AND COALESCE(last_used_at, created_at) > ?',
      [row.id, idleSince],
    );
    if (used) continue;
    dropped += (await driver.run("DELETE FROM oauth_records WHERE model = 'Client' AND id = ?", [row.id])).changes;
  }
  return dropped;
}
