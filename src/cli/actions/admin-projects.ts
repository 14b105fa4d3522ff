import { CanvasId, ProjectId, ResourceId } from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import type { MemberRole } from '../../store/records.js';
import { report, withStore } from '../cli-support.js';
import type { StoreFlags } from '../store-options.js';

/** `canvas-mcp admin workspace|project|canvas|member …`: workspaces, projects, their canvases and their members. */

export type AdminFlags = StoreFlags & { json?: boolean };
export type MemberFlags = AdminFlags & { issuer: string; subject: string };

export function createWorkspace(id: string, flags: AdminFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await store.projects.createWorkspace(parseOrThrow(ResourceId, id, ['workspace']));
    report(flags.json, { workspace_id: id }, `workspace ${id} created`);
  });
}

export function createProject(id: string, flags: AdminFlags & { workspace: string }): Promise<void> {
  return withStore(flags, async (store) => {
    await store.projects.createProject(parseOrThrow(ProjectId, id, ['project']), flags.workspace);
    report(
      flags.json,
      { project_id: id, workspace_id: flags.workspace },
      `project ${id} created in workspace ${flags.workspace}`,
    );
  });
}

export function setProjectBudget(id: string, flags: AdminFlags & { credits: string }): Promise<void> {
  return withStore(flags, async (store) => {
    const credits = flags.credits === 'none' ? null : Number(flags.credits);
    if (credits !== null && !(Number.isFinite(credits) && credits >= 0)) {
      throw new CanvasError(
        'invalid_arguments',
        `--credits must be a number >= 0 or "none", got ${JSON.stringify(flags.credits)}.`,
      );
    }
    await store.projects.setProjectBudget(id, credits);
    report(flags.json, { project_id: id, budget_credits: credits }, `project ${id} budget: ${credits ?? 'none'}`);
  });
}

export function createCanvas(
  projectId: string,
  canvasId: string,
  flags: AdminFlags & { locked?: boolean },
): Promise<void> {
  return withStore(flags, async (store) => {
    await store.projects.createCanvas(projectId, parseOrThrow(CanvasId, canvasId, ['canvas']), !!flags.locked);
    report(
      flags.json,
      { project_id: projectId, canvas_id: canvasId, locked: !!flags.locked },
      `canvas ${canvasId} created in project ${projectId}${flags.locked ? ' (locked)' : ''}`,
    );
  });
}

export function setCanvasLocked(
  projectId: string,
  canvasId: string,
  locked: boolean,
  flags: AdminFlags,
): Promise<void> {
  return withStore(flags, async (store) => {
    await store.projects.setCanvasLocked(projectId, canvasId, locked);
    report(
      flags.json,
      { project_id: projectId, canvas_id: canvasId, locked },
      `canvas ${canvasId} ${locked ? 'locked' : 'unlocked'}`,
    );
  });
}

export function addMember(projectId: string, flags: MemberFlags & { role: MemberRole }): Promise<void> {
  return withStore(flags, async (store) => {
    await store.projects.addMember(projectId, { issuer: flags.issuer, subject: flags.subject }, flags.role);
    report(
      flags.json,
      { project_id: projectId, issuer: flags.issuer, subject: flags.subject, role: flags.role },
      `${flags.subject} is ${flags.role} of project ${projectId}`,
    );
  });
}

export function removeMember(projectId: string, flags: MemberFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await store.projects.removeMember(projectId, { issuer: flags.issuer, subject: flags.subject });
    report(
      flags.json,
      { project_id: projectId, issuer: flags.issuer, subject: flags.subject, removed: true },
      `${flags.subject} removed from project ${projectId}`,
    );
  });
}
