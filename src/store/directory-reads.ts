import { z } from 'zod';
import { RunStatus } from '../contract/index.js';
import {
  CHAT_RUN_COLUMNS,
  ChatRunRow,
  MEMBER_ROLES,
  ScopeRow,
  TOKEN_COLUMNS,
  TokenRow,
  parseRow,
  type Actor,
  type ChatRunRecord,
  type MemberRole,
  type TokenRecord,
} from './records.js';
import type { SqlDriver } from './sql-driver.js';

/** Lists of what the store holds, for people (the API) and administrators (`admin … list`). */

const Millis = z.coerce.number().int();
const ProjectRowSchema = z.object({ id: z.string(), workspace_id: z.string(), title: z.string().nullable() });
const MembershipRow = z.object({
  project_id: z.string(),
  workspace_id: z.string(),
  role: z.enum(MEMBER_ROLES),
  title: z.string().nullable(),
});
const CanvasListRow = z.object({
  project_id: z.string(),
  id: z.string(),
  locked: z.coerce.number(),
  revision: Millis,
  title: z.string().nullable(),
});
const MemberRow = z.object({ issuer: z.string(), subject: z.string(), role: z.enum(MEMBER_ROLES), created_at: Millis });
const RunListRow = z.object({
  id: z.string(),
  node_id: z.string(),
  operation: z.string(),
  status: RunStatus,
  attempt: z.coerce.number().int(),
  cost_estimated: z.coerce.number(),
  cost_charged: z.coerce.number().nullable(),
  error_code: z.string().nullable(),
  created_at: Millis,
  finished_at: Millis.nullable(),
});

export interface ProjectEntry {
  projectId: string;
  workspaceId: string;
  /** What people call it; null: its id. */
  title: string | null;
}

export interface CanvasEntry {
  projectId: string;
  canvasId: string;
  locked: boolean;
  revision: number;
  title: string | null;
}

export interface RunEntry {
  runId: string;
  nodeId: string;
  operation: string;
  status: RunStatus;
  attempt: number;
  costEstimated: number;
  costCharged: number | null;
  errorCode: string | null;
  createdAt: number;
  finishedAt: number | null;
}

export function createDirectoryReads(driver: SqlDriver, clock: () => number) {
  async function tokensFrom(rows: unknown[]): Promise<TokenRecord[]> {
    const tokens: TokenRecord[] = [];
    for (const row of rows) {
      const token = parseRow(TokenRow, row);
      const scopes = (
        await driver.all('SELECT scope_kind, scope_id FROM token_scopes WHERE token_id = ? ORDER BY scope_id', [
          token.id,
        ])
      ).map((scope) => ScopeRow.parse(scope));
      tokens.push({
        ...token,
        projects: scopes.filter((scope) => scope.scope_kind === 'project').map((scope) => scope.scope_id),
        workspaces: scopes.filter((scope) => scope.scope_kind === 'workspace').map((scope) => scope.scope_id),
      });
    }
    return tokens;
  }

  return {
    async projects(): Promise<ProjectEntry[]> {
      const rows = await driver.all(
        'SELECT id, workspace_id, title FROM projects WHERE deleted_at IS NULL ORDER BY id',
      );
      return rows
        .map((row) => ProjectRowSchema.parse(row))
        .map((row) => ({ projectId: row.id, workspaceId: row.workspace_id, title: row.title }));
    },

    /** The projects a person is a member of, with the role. */
    async membershipsOf(person: Actor): Promise<Array<ProjectEntry & { role: MemberRole }>> {
      const rows = await driver.all(
        `SELECT m.project_id, p.workspace_id, m.role, p.title FROM project_members m JOIN projects p ON p.id = m.project_id
         WHERE m.issuer = ? AND m.subject = ? AND p.deleted_at IS NULL ORDER BY m.project_id`,
        [person.issuer, person.subject],
      );
      return rows
        .map((row) => MembershipRow.parse(row))
        .map((row) => ({ projectId: row.project_id, workspaceId: row.workspace_id, role: row.role, title: row.title }));
    },

    async canvases(projectId?: string): Promise<CanvasEntry[]> {
      const rows = projectId
        ? await driver.all(
            'SELECT project_id, id, locked, revision, title FROM canvases WHERE project_id = ? AND deleted_at IS NULL ORDER BY id',
            [projectId],
          )
        : await driver.all(
            'SELECT project_id, id, locked, revision, title FROM canvases WHERE deleted_at IS NULL ORDER BY project_id, id',
          );
      return rows
        .map((row) => CanvasListRow.parse(row))
        .map((row) => ({
          projectId: row.project_id,
          canvasId: row.id,
          locked: row.locked === 1,
          revision: row.revision,
          title: row.title,
        }));
    },

    async members(projectId: string): Promise<Array<{ person: Actor; role: MemberRole; createdAt: number }>> {
      const rows = await driver.all(
        'SELECT issuer, subject, role, created_at FROM project_members WHERE project_id = ? ORDER BY issuer, subject',
        [projectId],
      );
      return rows
        .map((row) => MemberRow.parse(row))
        .map((row) => ({
          person: { issuer: row.issuer, subject: row.subject },
          role: row.role,
          createdAt: row.created_at,
        }));
    },

    /** Tokens, all or those scoped to a project (directly), newest first. */
    async tokens(projectId?: string): Promise<TokenRecord[]> {
      const rows = projectId
        ? await driver.all(
            `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id IN (SELECT token_id FROM token_scopes WHERE scope_kind = 'project' AND scope_id = ?)
             ORDER BY created_at DESC`,
            [projectId],
          )
        : await driver.all(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at DESC`);
      return tokensFrom(rows);
    },

    /** Chat runs of a canvas that have not ended or expired, newest first. */
    async activeChatRuns(projectId: string, canvasId: string): Promise<ChatRunRecord[]> {
      const rows = await driver.all(
        `SELECT ${CHAT_RUN_COLUMNS} FROM chat_runs WHERE project_id = ? AND canvas_id = ? AND ended_at IS NULL
           AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC`,
        [projectId, canvasId, clock()],
      );
      return rows.map((row) => parseRow(ChatRunRow, row));
    },

    /** Every chat run of a canvas, ended and expired ones included, newest first. */
    async chatRuns(projectId: string, canvasId: string): Promise<ChatRunRecord[]> {
      const rows = await driver.all(
        `SELECT ${CHAT_RUN_COLUMNS} FROM chat_runs WHERE project_id = ? AND canvas_id = ? ORDER BY created_at DESC, id`,
        [projectId, canvasId],
      );
      return rows.map((row) => parseRow(ChatRunRow, row));
    },

    /** Every asset the store knows of (backups archive their files). */
    async assetIds(): Promise<string[]> {
      const rows = await driver.all('SELECT id FROM assets ORDER BY id');
      return rows.map((row) => z.string().parse(row.id));
    },

    /** Node runs of a canvas, newest first, at most `limit`. */
    async runs(projectId: string, canvasId: string, limit: number): Promise<RunEntry[]> {
      const rows = await driver.all(
        `SELECT id, node_id, operation, status, attempt, cost_estimated, cost_charged, error_code, created_at, finished_at
         FROM node_runs WHERE project_id = ? AND canvas_id = ? ORDER BY created_at DESC, id LIMIT ?`,
        [projectId, canvasId, limit],
      );
      return rows
        .map((row) => RunListRow.parse(row))
        .map((row) => ({
          runId: row.id,
          nodeId: row.node_id,
          operation: row.operation,
          status: row.status,
          attempt: row.attempt,
          costEstimated: row.cost_estimated,
          costCharged: row.cost_charged,
          errorCode: row.error_code,
          createdAt: row.created_at,
          finishedAt: row.finished_at,
        }));
    },
  };
}

export type DirectoryReads = ReturnType<typeof createDirectoryReads>;
