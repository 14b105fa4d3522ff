import { CanvasError } from '../../shared/errors.js';
import type { MemberRole, TokenRole } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from './caller.js';

/**
 * Project, workspace and object permissions (docs/security.md). The canvas edit authorization is checked inside
 * the write transaction itself (src/canvas/edit-authorization.ts), so it cannot change between check and write. Reads need viewer rights, writes editor
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
  const canvas = await store.layout.readCanvas(projectId, canvasId);
  if (!canvas) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
  return canvas;
}
