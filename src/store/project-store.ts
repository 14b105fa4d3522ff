import { CanvasError } from '../shared/errors.js';
import { MemberRoleRow, ProjectRow, parseRow, type Actor, type MemberRole, type ProjectRecord } from './records.js';
import { immutableCache, type ReadCache } from './read-cache.js';
import { requireRow } from './row-statements.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Workspaces, projects, canvases and memberships: what administrators manage. */

export interface ProjectStore {
  isEmpty(): Promise<boolean>;
  createWorkspace(id: string): Promise<void>;
  createProject(id: string, workspaceId: string): Promise<void>;
  setProjectBudget(id: string, budgetCredits: number | null): Promise<void>;
  getProject(id: string): Promise<ProjectRecord | undefined>;
  /** The workspace of a project (never changes once created), or undefined when there is no such project. */
  projectWorkspace(id: string): Promise<string | undefined>;
  createCanvas(projectId: string, canvasId: string, locked: boolean): Promise<void>;
  setCanvasLocked(projectId: string, canvasId: string, locked: boolean): Promise<void>;
  addMember(projectId: string, actor: Actor, role: MemberRole): Promise<void>;
  getMemberRole(projectId: string, actor: Actor): Promise<MemberRole | undefined>;
  /** Ends a membership; throws not_found when there is none. */
  removeMember(projectId: string, actor: Actor): Promise<void>;
}

async function insertUnique(
  tx: SqlExecutor,
  existsSql: string,
  key: string[],
  message: string,
  insert: () => Promise<unknown>,
) {
  if (await tx.get(existsSql, key)) throw new CanvasError('already_exists', message);
  await insert();
}

export function createProjectStore(driver: SqlDriver, clock: () => number, cachedRead: ReadCache): ProjectStore {
  // A project never changes workspace, so its workspace is cached.
  const projectWorkspaces = immutableCache<string>(10_000);

  return {
    async isEmpty() {
      return !(await driver.get('SELECT 1 AS present FROM workspaces LIMIT 1'));
    },

    async createWorkspace(id) {
      await driver.transaction((tx) =>
        insertUnique(tx, 'SELECT 1 FROM workspaces WHERE id = ?', [id], `Workspace ${id} already exists.`, () =>
          tx.run('INSERT INTO workspaces (id, created_at) VALUES (?, ?)', [id, clock()]),
        ),
      );
    },

    async createProject(id, workspaceId) {
      await driver.transaction(async (tx) => {
        await requireRow(tx, 'SELECT 1 FROM workspaces WHERE id = ?', [workspaceId], `No workspace ${workspaceId}.`);
        await insertUnique(tx, 'SELECT 1 FROM projects WHERE id = ?', [id], `Project ${id} already exists.`, () =>
          tx.run('INSERT INTO projects (id, workspace_id, created_at) VALUES (?, ?, ?)', [id, workspaceId, clock()]),
        );
      });
    },

    async setProjectBudget(id, budgetCredits) {
      const { changes } = await driver.run('UPDATE projects SET budget_credits = ? WHERE id = ?', [budgetCredits, id]);
      if (changes === 0) throw new CanvasError('not_found', `No project ${id}.`);
    },

    async getProject(id) {
      const row = await driver.get(
        'SELECT id, workspace_id, budget_credits, spent_credits FROM projects WHERE id = ? AND deleted_at IS NULL',
        [id],
      );
      return row ? parseRow(ProjectRow, row) : undefined;
    },

    async projectWorkspace(id) {
      const cached = projectWorkspaces.get(id);
      if (cached !== undefined) return cached;
      const project = await this.getProject(id);
      if (project) projectWorkspaces.set(id, project.workspaceId);
      return project?.workspaceId;
    },

    async createCanvas(projectId, canvasId, locked) {
      await driver.transaction(async (tx) => {
        await requireRow(tx, 'SELECT 1 FROM projects WHERE id = ?', [projectId], `No project ${projectId}.`);
        await insertUnique(
          tx,
          'SELECT 1 FROM canvases WHERE project_id = ? AND id = ?',
          [projectId, canvasId],
          `Canvas ${canvasId} already exists in project ${projectId}.`,
          () =>
            tx.run('INSERT INTO canvases (project_id, id, locked, created_at) VALUES (?, ?, ?, ?)', [
              projectId,
              canvasId,
              locked ? 1 : 0,
              clock(),
            ]),
        );
      });
    },

    async setCanvasLocked(projectId, canvasId, locked) {
      const { changes } = await driver.run('UPDATE canvases SET locked = ? WHERE project_id = ? AND id = ?', [
        locked ? 1 : 0,
        projectId,
        canvasId,
      ]);
      if (changes === 0) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
    },

    async addMember(projectId, actor, role) {
      await driver.transaction(async (tx) => {
        await requireRow(tx, 'SELECT 1 FROM projects WHERE id = ?', [projectId], `No project ${projectId}.`);
        await tx.run('DELETE FROM project_members WHERE project_id = ? AND issuer = ? AND subject = ?', [
          projectId,
          actor.issuer,
          actor.subject,
        ]);
        await tx.run(
          'INSERT INTO project_members (project_id, issuer, subject, role, created_at) VALUES (?, ?, ?, ?, ?)',
          [projectId, actor.issuer, actor.subject, role, clock()],
        );
      });
    },

    async removeMember(projectId, actor) {
      const { changes } = await driver.run(
        'DELETE FROM project_members WHERE project_id = ? AND issuer = ? AND subject = ?',
        [projectId, actor.issuer, actor.subject],
      );
      if (changes === 0)
        throw new CanvasError(
          'not_found',
          `${actor.subject} (${actor.issuer}) is not a member of project ${projectId}.`,
        );
    },

    getMemberRole(projectId, actor) {
      return cachedRead(`member\u0000${projectId}\u0000${actor.issuer}\u0000${actor.subject}`, async () => {
        const row = await driver.get(
          'SELECT role FROM project_members WHERE project_id = ? AND issuer = ? AND subject = ?',
          [projectId, actor.issuer, actor.subject],
        );
        return row ? parseRow(MemberRoleRow, row).role : undefined;
      });
    },
  };
}
