import { CanvasError } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/ids.js';
import type { Actor, TokenKind, TokenRecord, TokenRole } from '../../store/records.js';
import type { Store } from '../../store/store.js';

/** Who is calling: an administrator-issued token, as verified. A valid token proves only authentication. */
export interface Principal {
  tokenId: string;
  tokenName: string;
  kind: TokenKind;
  role: TokenRole;
  projects: readonly string[];
  workspaces: readonly string[];
  /** The delegated identity the administrator bound to this token; requests must then assert it. */
  requiredActor: Actor | null;
}

export function principalOf(token: TokenRecord): Principal {
  return {
    tokenId: token.id,
    tokenName: token.name,
    kind: token.kind,
    role: token.role,
    projects: token.projects,
    workspaces: token.workspaces,
    requiredActor: token.actor,
  };
}

/** Why a token is not valid now, or null when it is. */
export function tokenRejection(token: TokenRecord | undefined, now: number, accepted: readonly TokenKind[]): string | null {
  if (!token) return 'Unknown token: use a token issued by the administrator for this service.';
  if (token.revokedAt !== null) return 'This token was revoked.';
  if (token.expiresAt !== null && token.expiresAt <= now) return 'This token has expired.';
  if (!accepted.includes(token.kind)) return 'This token is not valid for this service.';
  return null;
}

/** Verifies a presented secret (stored only as SHA-256) and returns its principal, or throws unauthenticated. */
export async function authenticateSecretHash(
  store: Store,
  secretHash: string,
  now: number,
  accepted: readonly TokenKind[],
): Promise<Principal> {
  const token = await store.admin.findTokenBySecretHash(secretHash);
  const rejection = tokenRejection(token, now, accepted);
  if (rejection) throw new CanvasError('unauthenticated', rejection);
  return principalOf(token!);
}

export function authenticateSecret(store: Store, secret: string, now: number, accepted: readonly TokenKind[]) {
  return authenticateSecretHash(store, sha256Hex(secret), now, accepted);
}
