import { z } from 'zod';
import { ToolSetList, type ToolSetName } from '../contract/tool-sets.js';
import type { Actor } from './records.js';
import { insertRow } from './row-statements.js';
import type { SqlDriver } from './sql-driver.js';

/**
 * What people approved for OAuth clients (migration 010, `oauth_grants`; src/oauth/): one canvas, its scopes, and
 * the agent token (and, for edits, the chat run) the client acts through.
 */

export const OAUTH_SCOPES = ['canvas:read', 'canvas:write', 'runs:write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export interface OAuthGrantRecord {
  grantId: string;
  clientId: string;
  clientName: string | null;
  projectId: string;
  canvasId: string;
  person: Actor;
  scopes: OAuthScope[];
  tokenId: string;
  chatRunId: string | null;
  spendLimit: number | null;
  spent: number;
  createdAt: number;
  lastUsedAt: number | null;
  endedAt: number | null;
  /** Tool sets beyond the six a project owner enabled for the connection (docs/contract.md, "Tools beyond the six"). */
  toolSets?: readonly ToolSetName[];
}

const GrantRow = z
  .object({
    grant_id: z.string(),
    client_id: z.string(),
    client_name: z.string().nullable(),
    project_id: z.string(),
    canvas_id: z.string(),
    issuer: z.string(),
    subject: z.string(),
    scopes: z.string(),
    token_id: z.string(),
    chat_run_id: z.string().nullable(),
    spend_limit: z.coerce.number().nullable(),
    spent: z.coerce.number(),
    created_at: z.coerce.number(),
    last_used_at: z.coerce.number().nullable(),
    ended_at: z.coerce.number().nullable(),
    tool_sets: z.string().nullable(),
  })
  .transform((row): OAuthGrantRecord => ({
    grantId: row.grant_id,
    clientId: row.client_id,
    clientName: row.client_name,
    projectId: row.project_id,
    canvasId: row.canvas_id,
    person: { issuer: row.issuer, subject: row.subject },
    scopes: row.scopes
      .split(' ')
      .filter((scope): scope is OAuthScope => (OAUTH_SCOPES as readonly string[]).includes(scope)),
    tokenId: row.token_id,
    chatRunId: row.chat_run_id,
    spendLimit: row.spend_limit,
    spent: row.spent,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    endedAt: row.ended_at,
    toolSets: row.tool_sets ? ToolSetList.parse(JSON.parse(row.tool_sets)) : [],
  }));

const COLUMNS =
  'grant_id, client_id, client_name, project_id, canvas_id, issuer, subject, scopes, token_id, chat_run_id, spend_limit, spent, created_at, last_used_at, ended_at, tool_sets';
/** Writes that mark a grant as used are spaced at least this far apart: a busy client does not write on every call. */
const LAST_USED_RESOLUTION_MS = 30_000;

export function createOAuthGrants(driver: SqlDriver, clock: () => number) {
  return {
    async create(grant: Omit<OAuthGrantRecord, 'spent' | 'createdAt' | 'lastUsedAt' | 'endedAt'>): Promise<void> {
      await insertRow(driver, 'oauth_grants', {
        grant_id: grant.grantId,
        client_id: grant.clientId,
        client_name: grant.clientName,
        project_id: grant.projectId,
        canvas_id: grant.canvasId,
        issuer: grant.person.issuer,
        subject: grant.person.subject,
        scopes: grant.scopes.join(' '),
        token_id: grant.tokenId,
        chat_run_id: grant.chatRunId,
        spend_limit: grant.spendLimit,
        spent: 0,
        created_at: clock(),
      });
    },

    async get(grantId: string): Promise<OAuthGrantRecord | undefined> {
      const row = await driver.get(`SELECT ${COLUMNS} FROM oauth_grants WHERE grant_id = ?`, [grantId]);
      return row ? GrantRow.parse(row) : undefined;
    },

    /** Active grants on a canvas, newest first. */
    async onCanvas(projectId: string, canvasId: string): Promise<OAuthGrantRecord[]> {
      const rows = await driver.all(
        `SELECT ${COLUMNS} FROM oauth_grants WHERE project_id = ? AND canvas_id = ? AND ended_at IS NULL ORDER BY created_at DESC, grant_id`,
        [projectId, canvasId],
      );
      return rows.map((row) => GrantRow.parse(row));
    },

    async touch(grant: OAuthGrantRecord): Promise<void> {
      const now = clock();
      if (grant.lastUsedAt !== null && now - grant.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
      await driver.run('UPDATE oauth_grants SET last_used_at = ? WHERE grant_id = ?', [now, grant.grantId]);
    },

    /** Adds a run's estimate to what the grant spent, only if it stays within its limit; false when it would not. */
    async spend(grantId: string, credits: number): Promise<boolean> {
      const { changes } = await driver.run(
        'UPDATE oauth_grants SET spent = spent + ? WHERE grant_id = ? AND (spend_limit IS NULL OR spent + ? <= spend_limit)',
        [credits, grantId, credits],
      );
      return changes === 1;
    },

    /** Sets the connection's tool sets (an owner's choice); they apply from its next request. */
    async setToolSets(grantId: string, sets: readonly ToolSetName[]): Promise<void> {
      await driver.run('UPDATE oauth_grants SET tool_sets = ? WHERE grant_id = ?', [
        sets.length ? JSON.stringify(sets) : null,
        grantId,
      ]);
    },

    async end(grantId: string): Promise<void> {
      await driver.run('UPDATE oauth_grants SET ended_at = ? WHERE grant_id = ? AND ended_at IS NULL', [
        clock(),
        grantId,
      ]);
    },
  };
}

export type OAuthGrants = ReturnType<typeof createOAuthGrants>;
