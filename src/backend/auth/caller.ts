import { CanvasError } from '../../shared/errors.js';
import type { Actor } from '../../store/records.js';
import type { Principal, TokenPrincipal } from './principal.js';

/**
 * Everything a backend operation knows about its caller: the verified principal, the delegated actor it asserts
 * (trusted only because it matches what the administrator issued with the token; for a session, the person), the
 * chat run it acts in, and the gateway it came through.
 */
export interface CallerContext {
  principal: Principal;
  actor: Actor | null;
  agentRunId: string | null;
  /** The gateway token a request came through, whose own scope also bounds what it may reach. */
  gateway: TokenPrincipal | null;
  requestId: string;
}

/** The request headers that carry identity; names are lower case. */
export const IDENTITY_HEADERS = {
  actorSubject: 'x-service-actor-subject',
  actorIssuer: 'x-service-actor-issuer',
  agentRunId: 'x-agent-run-id',
} as const;

const ACTOR_HEADER_PREFIX = 'x-service-actor-';
const KNOWN_ACTOR_HEADERS: ReadonlySet<string> = new Set([IDENTITY_HEADERS.actorSubject, IDENTITY_HEADERS.actorIssuer]);

export interface IdentityHeaders {
  actorSubject?: string;
  actorIssuer?: string;
  agentRunId?: string;
  /** Any other X-Service-Actor-* header names present: we define none, so they are refused. */
  unknownActorHeaders: string[];
}

export function readIdentityHeaders(
  get: (name: string) => string | undefined,
  names: Iterable<string>,
): IdentityHeaders {
  // One pass, no copies: this runs on every MCP request.
  const unknownActorHeaders: string[] = [];
  for (const each of names) {
    const name = each.toLowerCase();
    if (name.startsWith(ACTOR_HEADER_PREFIX) && !KNOWN_ACTOR_HEADERS.has(name)) unknownActorHeaders.push(name);
  }
  const value = (name: string) => {
    const raw = get(name);
    return raw === undefined || raw === '' ? undefined : raw;
  };
  return {
    actorSubject: value(IDENTITY_HEADERS.actorSubject),
    actorIssuer: value(IDENTITY_HEADERS.actorIssuer),
    agentRunId: value(IDENTITY_HEADERS.agentRunId),
    unknownActorHeaders,
  };
}

/**
 * Accepts the delegated identity headers only when they are exactly what the administrator issued with the
 * token (spec: Authentication 4: "never guessed"). A token issued without one refuses them. A session is its
 * person; it asserts no other identity.
 */
export function resolveCaller(
  principal: Principal,
  headers: IdentityHeaders,
  requestId: string,
  gateway: TokenPrincipal | null = null,
): CallerContext {
  if (headers.unknownActorHeaders.length > 0) {
    throw new CanvasError(
      'forbidden',
      `Unknown delegated identity header ${headers.unknownActorHeaders.join(', ')}: only X-Service-Actor-Subject and X-Service-Actor-Issuer are defined.`,
    );
  }
  const asserted = headers.actorSubject !== undefined || headers.actorIssuer !== undefined;
  const agentRunId = headers.agentRunId ?? null;
  if (principal.kind === 'session') {
    if (asserted)
      throw new CanvasError(
        'forbidden',
        'A signed-in person acts as themselves: remove X-Service-Actor-Subject and X-Service-Actor-Issuer.',
      );
    return { principal, actor: { ...principal.person }, agentRunId, gateway, requestId };
  }
  const required = principal.requiredActor;
  if (!required) {
    if (asserted) {
      throw new CanvasError(
        'forbidden',
        'This token was not issued for a delegated identity: remove X-Service-Actor-Subject and X-Service-Actor-Issuer.',
      );
    }
    return { principal, actor: null, agentRunId, gateway, requestId };
  }
  if (headers.actorSubject === undefined || headers.actorIssuer === undefined) {
    throw new CanvasError(
      'forbidden',
      'This token requires a delegated identity: send X-Service-Actor-Subject and X-Service-Actor-Issuer with the values the administrator supplied.',
    );
  }
  if (headers.actorSubject !== required.subject || headers.actorIssuer !== required.issuer) {
    throw new CanvasError(
      'forbidden',
      'X-Service-Actor-Subject / X-Service-Actor-Issuer do not match the identity this token was issued for.',
    );
  }
  return { principal, actor: { ...required }, agentRunId, gateway, requestId };
}

/**
 * Whose budget a request spends (per-minute writes, upload bytes, media and export slots): a person is one budget
 * wherever they act from (any session, a backend token acting for them); a token acting for nobody, or an agent run,
 * is its own.
 */
export function budgetKeyOf(ctx: CallerContext): string {
  const { principal } = ctx;
  if (principal.kind === 'session') return `person\u0000${principal.person.issuer}\u0000${principal.person.subject}`;
  if (ctx.actor && ctx.agentRunId === null) return `person\u0000${ctx.actor.issuer}\u0000${ctx.actor.subject}`;
  return `token\u0000${principal.tokenId}`;
}
