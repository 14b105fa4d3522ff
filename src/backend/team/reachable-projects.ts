import type { ProjectView } from '../../contract/index.js';
import type { MemberRole } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { projectRole } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';

/**
 * The projects (with their canvases) a caller can open, with its role in each: a person's memberships, or every
 * project a token reaches after its scope and its actor's membership (what /api/v1/me lists, and what MCP completions
 * offer).
 */
export async function reachableProjects(store: Store, ctx: CallerContext): Promise<ProjectView[]> {
  const candidates =
    ctx.principal.kind === 'session'
      ? await store.directory.membershipsOf(ctx.principal.person)
      : await store.directory.projects();
  const projects: ProjectView[] = [];
  for (const { projectId, title } of candidates) {
    const role: MemberRole | null = await projectRole(store, ctx, projectId).catch(() => null);
    if (!role) continue;
    const workspaceId = (await store.projects.projectWorkspace(projectId))!;
    const canvases = (await store.directory.canvases(projectId)).map((canvas) => ({
      canvas_id: canvas.canvasId,
      title: canvas.title,
      locked: canvas.locked,
      revision: canvas.revision,
    }));
    projects.push({ project_id: projectId, workspace_id: workspaceId, title, role, canvases });
  }
  return projects;
}
