import { z } from 'zod';
import type { Person } from '../contract/person.js';
import { ToolSetList } from '../contract/tool-sets.js';

/**
 * Rows read back from the database, parsed once at this boundary into typed records. Column types differ
 * slightly between drivers (SQLite integers, PostgreSQL numbers), so numbers are coerced from either.
 */

const Millis = z.coerce.number().int();
const NullableMillis = Millis.nullable();
const Flag = z.coerce.number().transform((value) => value === 1);

export const TOKEN_KINDS = ['agent', 'backend', 'gateway'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
export const TOKEN_ROLES = ['viewer', 'editor'] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];
/**
 * What a token is for beyond its kind: `assistant`, the in-product canvas chat's agent (src/agent/); `connector`, the
 * one an OAuth grant acts through (src/oauth/).
 */
export const TOKEN_PURPOSES = ['assistant', 'connector'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];
export const MEMBER_ROLES = ['viewer', 'editor', 'owner'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Where an asset's bytes are kept (src/assets/ has one store for each). */
export const ASSET_STORAGES = ['local', 'postgres', 's3'] as const;
export type AssetStorage = (typeof ASSET_STORAGES)[number];

/** Who did something: a person (src/contract/person.ts). */
export type Actor = Person;

function actorOf(issuer: string | null, subject: string | null): Actor | null {
  return issuer !== null && subject !== null ? { issuer, subject } : null;
}

const CanvasScope = z
  .array(z.object({ project_id: z.string(), canvas_id: z.string() }))
  .transform((refs) => refs.map((ref) => ({ projectId: ref.project_id, canvasId: ref.canvas_id })));

/** A token's canvas scope as stored (a JSON list), or null for none. */
export function canvasScopeText(canvases: ReadonlyArray<{ projectId: string; canvasId: string }> | null | undefined) {
  return canvases
    ? JSON.stringify(canvases.map((ref) => ({ project_id: ref.projectId, canvas_id: ref.canvasId })))
    : null;
}

export const TokenRow = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(TOKEN_KINDS),
    role: z.enum(TOKEN_ROLES),
    actor_issuer: z.string().nullable(),
    actor_subject: z.string().nullable(),
    created_at: Millis,
    expires_at: NullableMillis,
    revoked_at: NullableMillis,
    issued_by_issuer: z.string().nullable(),
    issued_by_subject: z.string().nullable(),
    purpose: z.enum(TOKEN_PURPOSES).nullable(),
    canvas_scope: z.string().nullable(),
    tool_sets: z.string().nullable().optional(),
  })
  .transform((row) => ({
    id: row.id,
    name: row.name,
    kind: row.kind,
    role: row.role,
    actor: actorOf(row.actor_issuer, row.actor_subject),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    issuedBy: actorOf(row.issued_by_issuer, row.issued_by_subject),
    purpose: row.purpose,
    /** The canvases it may reach, beyond its projects' rights; null: every canvas they allow. */
    canvases: row.canvas_scope === null ? null : CanvasScope.parse(JSON.parse(row.canvas_scope)),
    /** The tool sets beyond the six an owner enabled for it (docs/contract.md, "Tools beyond the six"). */
    toolSets: row.tool_sets ? ToolSetList.parse(JSON.parse(row.tool_sets)) : [],
  }));

export type TokenRecord = z.output<typeof TokenRow> & { projects: string[]; workspaces: string[] };

export const ScopeRow = z.object({ scope_kind: z.enum(['project', 'workspace']), scope_id: z.string() });

export const ProjectRow = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    budget_credits: z.coerce.number().nullable(),
    spent_credits: z.coerce.number(),
  })
  .transform((row) => ({
    id: row.id,
    workspaceId: row.workspace_id,
    budgetCredits: row.budget_credits,
    spentCredits: row.spent_credits,
  }));
export type ProjectRecord = z.output<typeof ProjectRow>;

export const CanvasRow = z
  .object({
    project_id: z.string(),
    id: z.string(),
    revision: Millis,
    states_version: Millis,
    locked: Flag,
  })
  .transform((row) => ({
    projectId: row.project_id,
    id: row.id,
    revision: row.revision,
    statesVersion: row.states_version,
    locked: row.locked,
  }));
export type CanvasRecord = z.output<typeof CanvasRow>;

export const CHAT_RUN_COLUMNS =
  'id, project_id, canvas_id, actor_issuer, actor_subject, token_id, opened_by_issuer, opened_by_subject, can_edit, created_at, expires_at, ended_at';

export const ChatRunRow = z
  .object({
    id: z.string(),
    project_id: z.string(),
    canvas_id: z.string(),
    actor_issuer: z.string().nullable(),
    actor_subject: z.string().nullable(),
    token_id: z.string().nullable(),
    opened_by_issuer: z.string().nullable(),
    opened_by_subject: z.string().nullable(),
    can_edit: Flag,
    created_at: Millis,
    expires_at: NullableMillis,
    ended_at: NullableMillis,
  })
  .transform((row) => ({
    id: row.id,
    projectId: row.project_id,
    canvasId: row.canvas_id,
    actor: actorOf(row.actor_issuer, row.actor_subject),
    tokenId: row.token_id,
    openedBy: actorOf(row.opened_by_issuer, row.opened_by_subject),
    canEdit: row.can_edit,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
  }));
export type ChatRunRecord = z.output<typeof ChatRunRow>;

export const MemberRoleRow = z.object({ role: z.enum(MEMBER_ROLES) });

export const TOKEN_COLUMNS =
  'id, name, kind, role, actor_issuer, actor_subject, created_at, expires_at, revoked_at, issued_by_issuer, issued_by_subject, purpose, canvas_scope, tool_sets';

export function parseRow<S extends z.ZodType>(schema: S, row: unknown): z.output<S> {
  return schema.parse(row);
}

export function parseRows<S extends z.ZodType>(schema: S, rows: unknown[]): Array<z.output<S>> {
  return rows.map((row) => schema.parse(row));
}
