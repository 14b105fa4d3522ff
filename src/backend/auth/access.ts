import { CanvasError } from '../../shared/errors.js';
import { ID_PREFIX } from '../../shared/ids.js';
import type { MemberRole, TokenRole } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { sameActor, type CallerContext } from './caller.js';

/**
 * Project, workspace and object permissions (docs/security.md). Reads need viewer rights, writes editor
 * rights. Rights come from the token's permitted projects and workspaces, capped by its role, and for a
 * delegated actor also by that actor's membership in the project.
 */

export type Need = 'viewer' | 'editor';

const RANK: Record<TokenRole | MemberRole, number> = { viewer: 1, editor: 2, owner: 3 };

export async function authorizeProject(store: Store, ctx: CallerContext, projectId: string, need: Need): Promise<void> {
  const workspaceId = await store.admin.projectWorkspace(projectId);
  const inScope =
    workspaceId !== undefined &&
    (ctx.principal.projects.includes(projectId) || ctx.principal.workspaces.includes(workspaceId));
  // A token that could never see the project learns nothing about whether it exists.
  if (!inScope) {
    if (workspaceId === undefined && ctx.principal.projects.includes(projectId)) {
      throw new CanvasError('not_found', `No project ${projectId}.`);
    }
    throw new CanvasError('forbidden', `This token is not permitted on project ${projectId}.`);
  }
  let rank = RANK[ctx.principal.role];
  if (ctx.actor) {
    const membership = await store.admin.getMemberRole(projectId, ctx.actor);
    if (!membership) {
      throw new CanvasError('forbidden', `Actor ${ctx.actor.subject} is not a member of project ${projectId}.`);
    }
    rank = Math.min(rank, RANK[membership]);
  }
  if (rank < RANK[need]) {
    throw new CanvasError(
      'forbidden',
      need === 'editor'
        ? `Only viewer rights on project ${projectId}: writes need editor rights.`
        : `No read rights on project ${projectId}.`,
    );
  }
}

export async function requireCanvas(store: Store, projectId: string, canvasId: string) {
  const canvas = await store.admin.getCanvas(projectId, canvasId);
  if (!canvas) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
  return canvas;
}

function notAuthorized(reason: string): CanvasError {
  return new CanvasError('edit_not_authorized', `No canvas edit authorization: ${reason}`);
}

/**
 * Spec: Authentication 5. A write carries X-Agent-Run-Id naming a real canvas chat run of the same project and
 * canvas, active, holding an edit authorization, of the same actor. A bearer token alone never gives edit rights.
 */
export async function requireEditAuthorization(
  store: Store,
  ctx: CallerContext,
  projectId: string,
  canvasId: string,
  now: number,
): Promise<void> {
  if (!ctx.agentRunId) {
    throw notAuthorized('send X-Agent-Run-Id with the id of an active canvas chat run that holds an edit authorization.');
  }
  const chatRun = await store.admin.getChatRun(ctx.agentRunId);
  if (!chatRun) {
    const hint = ctx.agentRunId.startsWith(ID_PREFIX.nodeRun) ? ' (it looks like a node run id, which is a different thing)' : '';
    throw notAuthorized(`X-Agent-Run-Id names no canvas chat run${hint}.`);
  }
  if (chatRun.projectId !== projectId || chatRun.canvasId !== canvasId) {
    throw notAuthorized('the chat run in X-Agent-Run-Id belongs to another canvas.');
  }
  if (chatRun.endedAt !== null) throw notAuthorized('the chat run in X-Agent-Run-Id has ended.');
  if (chatRun.expiresAt !== null && chatRun.expiresAt <= now) throw notAuthorized('the chat run in X-Agent-Run-Id has expired.');
  if (!chatRun.canEdit) throw notAuthorized('the chat run in X-Agent-Run-Id holds no edit authorization.');
  if (!sameActor(chatRun.actor, ctx.actor)) {
    throw notAuthorized('the chat run in X-Agent-Run-Id belongs to another actor.');
  }
}
