import type { CanvasRef, ToolSetName } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, newId, newTokenSecret, sha256Hex } from '../shared/ids.js';
import {
  TOKEN_COLUMNS,
  ScopeRow,
  TokenRow,
  canvasScopeText,
  parseRow,
  parseRows,
  type Actor,
  type TokenKind,
  type TokenPurpose,
  type TokenRecord,
  type TokenRole,
} from './records.js';
import { immutableCache } from './read-cache.js';
import { insertRow, requireRow } from './row-statements.js';
import type { SqlDriver } from './sql-driver.js';
import { createTokenCache } from './token-cache.js';

/** Tokens: the secrets agents, backends and gateways present, and the projects and workspaces each may reach. */

export interface NewToken {
  name: string;
  kind: TokenKind;
  role: TokenRole;
  projects: string[];
  workspaces: string[];
  actor: Actor | null;
  expiresAt: number | null;
  /** The person who issued it through the API (null: an administrator). */
  issuedBy?: Actor | null;
  purpose?: TokenPurpose | null;
  /** Only these canvases of its projects (the canvas chat's turn token); absent: every canvas they allow. */
  canvases?: CanvasRef[] | null;
  /** The tool sets beyond the six an owner enabled for it (docs/contract.md, "Tools beyond the six"); absent: none. */
  toolSets?: readonly ToolSetName[];
}

export interface TokenStore {
  createToken(token: NewToken): Promise<{ tokenId: string; secret: string }>;
  revokeToken(tokenId: string): Promise<void>;
  findTokenBySecret(secret: string): Promise<TokenRecord | undefined>;
  findTokenBySecretHash(secretHash: string): Promise<TokenRecord | undefined>;
  getToken(tokenId: string): Promise<TokenRecord | undefined>;
}

export function createTokenStore(driver: SqlDriver, clock: () => number): TokenStore {
  // Scopes are fixed when a token is issued, so they are cached for good; the token row itself until a token changes
  // (revocation: src/store/token-cache.ts).
  const tokens = createTokenCache(driver, clock);
  const tokenScopes = immutableCache<{ projects: string[]; workspaces: string[] }>(10_000);

  async function scopesOf(tokenId: string): Promise<{ projects: string[]; workspaces: string[] }> {
    const cached = tokenScopes.get(tokenId);
    if (cached) return cached;
    const scopes = parseRows(
      ScopeRow,
      await driver.all('SELECT scope_kind, scope_id FROM token_scopes WHERE token_id = ? ORDER BY scope_id', [tokenId]),
    );
    const value = {
      projects: scopes.filter((scope) => scope.scope_kind === 'project').map((scope) => scope.scope_id),
      workspaces: scopes.filter((scope) => scope.scope_kind === 'workspace').map((scope) => scope.scope_id),
    };
    tokenScopes.set(tokenId, value);
    return value;
  }

  async function tokenWithScopes(row: unknown): Promise<TokenRecord> {
    const token = parseRow(TokenRow, row);
    return { ...token, ...(await scopesOf(token.id)) };
  }

  return {
    async createToken(token) {
      const tokenId = newId(ID_PREFIX.token);
      const secret = newTokenSecret();
      await driver.transaction(async (tx) => {
        for (const projectId of token.projects) {
          await requireRow(tx, 'SELECT 1 FROM projects WHERE id = ?', [projectId], `No project ${projectId}.`);
        }
        for (const workspaceId of token.workspaces) {
          await requireRow(tx, 'SELECT 1 FROM workspaces WHERE id = ?', [workspaceId], `No workspace ${workspaceId}.`);
        }
        await insertRow(tx, 'tokens', {
          id: tokenId,
          name: token.name,
          kind: token.kind,
          secret_hash: sha256Hex(secret),
          role: token.role,
          actor_issuer: token.actor?.issuer ?? null,
          actor_subject: token.actor?.subject ?? null,
          created_at: clock(),
          expires_at: token.expiresAt,
          issued_by_issuer: token.issuedBy?.issuer ?? null,
          issued_by_subject: token.issuedBy?.subject ?? null,
          purpose: token.purpose ?? null,
          canvas_scope: canvasScopeText(token.canvases),
          tool_sets: token.toolSets?.length ? JSON.stringify(token.toolSets) : null,
        });
        const scopes = [
          ...[...new Set(token.projects)].map((id) => ['project', id] as const),
          ...[...new Set(token.workspaces)].map((id) => ['workspace', id] as const),
        ];
        for (const [kind, id] of scopes) {
          await tx.run('INSERT INTO token_scopes (token_id, scope_kind, scope_id) VALUES (?, ?, ?)', [
            tokenId,
            kind,
            id,
          ]);
        }
      });
      return { tokenId, secret };
    },

    async revokeToken(tokenId) {
      const changes = await driver.transaction(async (tx) => {
        const result = await tx.run('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?', [
          clock(),
          tokenId,
        ]);
        if (result.changes > 0) await tokens.changed(tx);
        return result.changes;
      });
      tokens.forget();
      if (changes === 0) throw new CanvasError('not_found', `No token ${tokenId}.`);
    },

    async findTokenBySecret(secret) {
      return this.findTokenBySecretHash(sha256Hex(secret));
    },

    findTokenBySecretHash(secretHash) {
      return tokens.lookup(secretHash, async () => {
        const row = await driver.get(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE secret_hash = ?`, [secretHash]);
        return row ? tokenWithScopes(row) : undefined;
      });
    },

    async getToken(tokenId) {
      const row = await driver.get(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ?`, [tokenId]);
      return row ? tokenWithScopes(row) : undefined;
    },
  };
}
