import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, newId, newTokenSecret, sha256Hex } from '../shared/ids.js';
import {
  CHAT_RUN_COLUMNS,
  ChatRunRow,
  TOKEN_COLUMNS,
  MemberRoleRow,
  ProjectRow,
  ScopeRow,
  TokenRow,
  parseRow,
  parseRows,
  type Actor,
  type ChatRunRecord,
  type MemberRole,
  type ProjectRecord,
  type TokenKind,
  type TokenPurpose,
  type TokenRecord,
  type TokenRole,
} from './records.js';
import type { ReadCache } from './read-cache.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Workspaces, projects, canvases, memberships, tokens and chat runs: what administrators manage. */

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
}

export interface NewChatRun {
  projectId: string;
  canvasId: string;
  /** The person the chat run acts for: a presenter must act for that person. */
  actor: Actor | null;
  /** The one token that may present it. */
  tokenId?: string | null;
  /** Who opened it (null: an administrator). */
  openedBy?: Actor | null;
  canEdit: boolean;
  expiresAt: number | null;
}

export interface AdminStore {
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
  createToken(token: NewToken): Promise<{ tokenId: string; secret: string }>;
  revokeToken(tokenId: string): Promise<void>;
  findTokenBySecret(secret: string): Promise<TokenRecord | undefined>;
  findTokenBySecretHash(secretHash: string): Promise<TokenRecord | undefined>;
  getToken(tokenId: string): Promise<TokenRecord | undefined>;
  createChatRun(chatRun: NewChatRun): Promise<string>;
  endChatRun(chatRunId: string): Promise<void>;
  /** The one token that may present a chat run from now on (the canvas chat mints one per turn). */
  bindChatRunToken(chatRunId: string, tokenId: string): Promise<void>;
  getChatRun(chatRunId: string): Promise<ChatRunRecord | undefined>;
}

async function requireRow(tx: SqlExecutor, sql: string, params: string[], message: string): Promise<void> {
  if (!(await tx.get(sql, params))) throw new CanvasError('not_found', message);
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

/** A bounded map for facts that never change once written (a token's scopes, a project's workspace). */
function immutableCache<V>(limit: number) {
  const entries = new Map<string, V>();
  return {
    get: (key: string) => entries.get(key),
    set(key: string, value: V) {
      if (entries.size >= limit) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
    },
  };
}

export function createAdminStore(driver: SqlDriver, clock: () => number, cachedRead: ReadCache): AdminStore {
  // Scopes are fixed when a token is issued and a project never changes workspace, so both are cached; the token
  // row itself (revocation, expiry) is read on every request.
  const tokenScopes = immutableCache<{ projects: string[]; workspaces: string[] }>(10_000);
  const projectWorkspaces = immutableCache<string>(10_000);

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
        await tx.run(
          `INSERT INTO tokens (id, name, kind, secret_hash, role, actor_issuer, actor_subject, created_at, expires_at,
             issued_by_issuer, issued_by_subject, purpose)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            tokenId,
            token.name,
            token.kind,
            sha256Hex(secret),
            token.role,
            token.actor?.issuer ?? null,
            token.actor?.subject ?? null,
            clock(),
            token.expiresAt,
            token.issuedBy?.issuer ?? null,
            token.issuedBy?.subject ?? null,
            token.purpose ?? null,
          ],
        );
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
      const { changes } = await driver.run('UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?', [
        clock(),
        tokenId,
      ]);
      if (changes === 0) throw new CanvasError('not_found', `No token ${tokenId}.`);
    },

    async findTokenBySecret(secret) {
      return this.findTokenBySecretHash(sha256Hex(secret));
    },

    findTokenBySecretHash(secretHash) {
      return cachedRead(`token\u0000${secretHash}`, async () => {
        const row = await driver.get(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE secret_hash = ?`, [secretHash]);
        return row ? tokenWithScopes(row) : undefined;
      });
    },

    async getToken(tokenId) {
      const row = await driver.get(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ?`, [tokenId]);
      return row ? tokenWithScopes(row) : undefined;
    },

    async createChatRun(chatRun) {
      const id = newId(ID_PREFIX.chatRun);
      await driver.transaction(async (tx) => {
        await requireRow(
          tx,
          'SELECT 1 FROM canvases WHERE project_id = ? AND id = ?',
          [chatRun.projectId, chatRun.canvasId],
          `No canvas ${chatRun.canvasId} in project ${chatRun.projectId}.`,
        );
        if (chatRun.tokenId) {
          await requireRow(tx, 'SELECT 1 FROM tokens WHERE id = ?', [chatRun.tokenId], `No token ${chatRun.tokenId}.`);
        }
        await tx.run(
          `INSERT INTO chat_runs (id, project_id, canvas_id, actor_issuer, actor_subject, token_id, opened_by_issuer,
             opened_by_subject, can_edit, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            chatRun.projectId,
            chatRun.canvasId,
            chatRun.actor?.issuer ?? null,
            chatRun.actor?.subject ?? null,
            chatRun.tokenId ?? null,
            chatRun.openedBy?.issuer ?? null,
            chatRun.openedBy?.subject ?? null,
            chatRun.canEdit ? 1 : 0,
            clock(),
            chatRun.expiresAt,
          ],
        );
      });
      return id;
    },

    async endChatRun(chatRunId) {
      const { changes } = await driver.run('UPDATE chat_runs SET ended_at = COALESCE(ended_at, ?) WHERE id = ?', [
        clock(),
        chatRunId,
      ]);
      if (changes === 0) throw new CanvasError('not_found', `No chat run ${chatRunId}.`);
    },

    async bindChatRunToken(chatRunId, tokenId) {
      const { changes } = await driver.run('UPDATE chat_runs SET token_id = ? WHERE id = ? AND ended_at IS NULL', [
        tokenId,
        chatRunId,
      ]);
      if (changes === 0) throw new CanvasError('not_found', `No active chat run ${chatRunId}.`);
    },

    getChatRun(chatRunId) {
      return cachedRead(`chat-run\u0000${chatRunId}`, async () => {
        const row = await driver.get(`SELECT ${CHAT_RUN_COLUMNS} FROM chat_runs WHERE id = ?`, [chatRunId]);
        return row ? parseRow(ChatRunRow, row) : undefined;
      });
    },
  };
}
