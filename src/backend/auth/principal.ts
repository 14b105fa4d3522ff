import type { CanvasRef, ToolSetName } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/ids.js';
import type { Actor, TokenKind, TokenPurpose, TokenRecord, TokenRole } from '../../store/records.js';
import type { Store } from '../../store/store.js';

/**
 * Who is calling, as verified: an administrator-issued token, or a signed-in person (a session). A valid
 * credential proves only authentication; every operation still checks permissions (src/backend/auth/access.ts).
 */
export interface TokenPrincipal {
  kind: TokenKind;
  tokenId: string;
  tokenName: string;
  role: TokenRole;
  projects: readonly string[];
  workspaces: readonly string[];
  /** The delegated identity the administrator bound to this token; requests must then assert it. */
  requiredActor: Actor | null;
  /**
   * The person who issued it through the API (null: an administrator). What it may do never exceeds what that person
   * holds now: their current membership caps it on every request (docs/security.md, "Agent tokens people issue").
   */
  issuedBy: Actor | null;
  /** `assistant`: the canvas chat's own agent, which may also start runs (each approved by its person in the chat). */
  purpose: TokenPurpose | null;
  /** The only canvases it may name at /mcp (the canvas chat's turn token); null: every canvas its rights allow. */
  canvases: readonly CanvasRef[] | null;
  /** Tool sets beyond the six an owner enabled for it (docs/contract.md, "Tools beyond the six"). */
  toolSets: readonly ToolSetName[];
}

/** A person signed in through a login link (or, later, OpenID Connect): rights come from project membership. */
export interface SessionPrincipal {
  kind: 'session';
  sessionId: string;
  person: Actor;
}

export type Principal = TokenPrincipal | SessionPrincipal;

export function principalOf(token: TokenRecord): TokenPrincipal {
  return {
    kind: token.kind,
    tokenId: token.id,
    tokenName: token.name,
    role: token.role,
    projects: token.projects,
    workspaces: token.workspaces,
    requiredActor: token.actor,
    issuedBy: token.issuedBy,
    purpose: token.purpose,
    canvases: token.canvases,
    toolSets: token.toolSets,
  };
}

/** What a log line says about a caller, never a secret. */
export function principalLogFields(principal: Principal): Record<string, string> {
  return principal.kind === 'session'
    ? { session_person: `${principal.person.issuer}|${principal.person.subject}` }
    : { token_id: principal.tokenId };
}

/** Why a token is not valid now, or null when it is. */
export function tokenRejection(
  token: TokenRecord | undefined,
  now: number,
  accepted: readonly TokenKind[],
): string | null {
  if (!token) return 'Unknown token: use a token issued by the administrator for this service.';
  if (token.revokedAt !== null) return 'This token was revoked.';
  if (token.expiresAt !== null && token.expiresAt <= now) return 'This token has expired.';
  if (!accepted.includes(token.kind)) {
    return token.kind === 'agent'
      ? 'Agent tokens are for the MCP endpoint (/mcp) only; the REST API takes backend tokens and signed-in people.'
      : 'This token is not valid for this service.';
  }
  return null;
}

/** Verifies a presented secret (stored only as SHA-256) and returns its principal, or throws unauthenticated. */
export async function authenticateSecretHash(
  store: Store,
  secretHash: string,
  now: number,
  accepted: readonly TokenKind[],
): Promise<TokenPrincipal> {
  const token = await store.tokens.findTokenBySecretHash(secretHash);
  const rejection = tokenRejection(token, now, accepted);
  if (rejection) throw new CanvasError('unauthenticated', rejection);
  return principalOf(token!);
}

export function authenticateSecret(store: Store, secret: string, now: number, accepted: readonly TokenKind[]) {
  return authenticateSecretHash(store, sha256Hex(secret), now, accepted);
}
