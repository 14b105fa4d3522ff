import type { EditAuthorization } from '../../store/edit-authorization.js';
import { CanvasError } from '../../shared/errors.js';
import type { MemberRole, TokenRole } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from './caller.js';
import type { TokenPrincipal } from './principal.js';

/**
 * Project, workspace and object permissions (docs/security.md). Reads need viewer rights, writes editor rights,
 * issuing tokens owner rights. A token's rights come from its permitted projects and workspaces, capped by its role
 * and, for a delegated actor, by that actor's membership in the project; a request through a gateway is also bounded
 * by the gateway's own scope. A signed-in person's rights are their membership role. The canvas edit authorization
 * is checked inside the write transaction itself (src/canvas/edit-authorization.ts).
 */

export type Need = 'viewer' | 'editor' | 'owner';

const RANK: Record<TokenRole | MemberRole, number> = { viewer: 1, editor: 2, owner: 3 };

function inScope(principal: TokenPrincipal, projectId: string, workspaceId: string): boolean {
  return principal.projects.includes(projectId) || principal.workspaces.includes(workspaceId);
}

function refusal(need: Need, projectId: string): CanvasError {
  const message = {
    viewer: `No read rights on project ${projectId}.`,
    editor: `Only viewer rights on project ${projectId}: writes need editor rights.`,
    owner: `Only an owner of project ${projectId} may do this.`,
  }[need];
  return new CanvasError('forbidden', message);
}

/** The caller's role on the project, after every cap; throws when the caller may not see the project at all. */
export async function projectRole(store: Store, ctx: CallerContext, projectId: string): Promise<MemberRole> {
  const workspaceId = await store.projects.projectWorkspace(projectId);
  const { principal } = ctx;
  let rank = RANK.owner;
  if (principal.kind !== 'session') {
    // A token that could never see the project learns nothing about whether it exists.
    if (workspaceId === undefined || !inScope(principal, projectId, workspaceId)) {
      if (workspaceId === undefined && principal.projects.includes(projectId))
        throw new CanvasError('not_found', `No project ${projectId}.`);
      throw new CanvasError('forbidden', `This token is not permitted on project ${projectId}.`);
    }
    if (ctx.gateway && !inScope(ctx.gateway, projectId, workspaceId)) {
      throw new CanvasError(
        'forbidden',
        `The gateway this request came through is not permitted on project ${projectId}.`,
      );
    }
    rank = RANK[principal.role];
    if (principal.issuedBy) {
      // A token a person issued never does more than that person may do now
      // (docs/security.md, "What people grant to agents").
      const issuerRole = await store.projects.getMemberRole(projectId, principal.issuedBy);
      if (!issuerRole) {
        throw new CanvasError(
          'forbidden',
          `This token was issued by ${principal.issuedBy.subject}, who is no longer a member of project ${projectId}: it ended with their membership.`,
        );
      }
      rank = Math.min(rank, RANK[issuerRole]);
    }
  } else if (workspaceId === undefined) {
    throw new CanvasError('forbidden', `You are not a member of project ${projectId}.`);
  }
  if (ctx.actor) {
    const membership = await store.projects.getMemberRole(projectId, ctx.actor);
    if (!membership) {
      throw new CanvasError(
        'forbidden',
        principal.kind === 'session'
          ? `You are not a member of project ${projectId}.`
          : `Actor ${ctx.actor.subject} is not a member of project ${projectId}.`,
      );
    }
    rank = Math.min(rank, RANK[membership]);
  }
  return rank >= RANK.owner ? 'owner' : rank >= RANK.editor ? 'editor' : 'viewer';
}

export async function authorizeProject(
  store: Store,
  ctx: CallerContext,
  projectId: string,
  need: Need,
): Promise<MemberRole> {
  const role = await projectRole(store, ctx, projectId);
  if (RANK[role] < RANK[need]) throw refusal(need, projectId);
  return role;
}

/**
 * What authorizes a layout write by this caller (spec: Authentication 5): an agent (and any token without a person)
 * presents a chat run in X-Agent-Run-Id; a signed-in person, or a backend token acting for one without a chat run,
 * writes as that person, whose editor or owner role authorizeProject has checked.
 */
export function editAuthorizationOf(ctx: CallerContext, now: number): EditAuthorization {
  const { principal } = ctx;
  if (principal.kind === 'session') return { kind: 'person', person: principal.person };
  if (principal.kind === 'backend' && ctx.actor && ctx.agentRunId === null)
    return { kind: 'person', person: ctx.actor };
  return {
    kind: 'agent',
    agentRunId: ctx.agentRunId,
    tokenId: principal.tokenId,
    tokenName: principal.tokenName,
    actor: ctx.actor,
    now,
  };
}

export async function requireCanvas(store: Store, projectId: string, canvasId: string) {
  const canvas = await store.layout.readCanvas(projectId, canvasId);
  if (!canvas) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
  return canvas;
}
