import { z } from 'zod';
import { CanvasEdge } from './edge.js';
import { BaseRevision, ClientSaveId } from './identifiers.js';
import { CreateCanvasNodeArgs } from './tools.js';
import { ToolSetList } from './tool-sets.js';
export { IdempotencyKey } from './idempotency.js';

/**
 * Bodies and headers of the backend's HTTP API that the six tools do not already define (docs/api.md).
 * Where a route does what a tool does, its body is the tool's arguments without the path parameters.
 */

export const SNAPSHOT_VERSION_HEADER = 'x-canvas-snapshot-version';
export const ON_BEHALF_OF_HEADER = 'x-canvas-on-behalf-of';
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REQUEST_ID_HEADER = 'x-request-id';

/** Where the web canvas shows one canvas (the page's route; tool results link to it). */
export const WEB_CANVAS_ROUTE = '/p/:project_id/c/:canvas_id';
export function webCanvasPath(projectId: string, canvasId: string): string {
  return `/p/${encodeURIComponent(projectId)}/c/${encodeURIComponent(canvasId)}`;
}

/** Where the web canvas shows one storyboard as a page of its own (Grid, List, Animatic: docs/ui.md, "The board page"). */
export const WEB_BOARD_ROUTE = '/p/:project_id/c/:canvas_id/board/:node_id';
export function webBoardPath(projectId: string, canvasId: string, nodeId: string): string {
  return `${webCanvasPath(projectId, canvasId)}/board/${encodeURIComponent(nodeId)}`;
}

/** Where a share link opens: Present mode of the boards it shows, without an account. */
export const WEB_SHARE_ROUTE = '/share/:secret';

/** Where the web app shows a project's team (members, invitations, audit log). */
export const WEB_TEAM_ROUTE = '/p/:project_id/team';
export function webTeamPath(projectId: string): string {
  return `/p/${encodeURIComponent(projectId)}/team`;
}

export const CreateNodeBody = CreateCanvasNodeArgs.omit({ project_id: true, canvas_id: true });
export type CreateNodeBody = z.infer<typeof CreateNodeBody>;

export const RevisionCheckedBody = z.strictObject({
  base_revision: BaseRevision,
  client_save_id: ClientSaveId,
});
export type RevisionCheckedBody = z.infer<typeof RevisionCheckedBody>;

export const CreateEdgeBody = RevisionCheckedBody.extend({ edge: CanvasEdge });
export type CreateEdgeBody = z.infer<typeof CreateEdgeBody>;

/** A gateway asks who a presented bearer token is, without ever sending the token itself. */
export const IntrospectionRequest = z.strictObject({
  token_sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be the lowercase hex SHA-256 of the token' }),
});

export const IntrospectedPrincipal = z.strictObject({
  token_id: z.string(),
  token_name: z.string(),
  kind: z.enum(['agent', 'backend', 'gateway']),
  role: z.enum(['viewer', 'editor']),
  projects: z.array(z.string()),
  workspaces: z.array(z.string()),
  required_actor: z.strictObject({ issuer: z.string(), subject: z.string() }).nullable(),
  /** The person who issued the token through the API; their current membership caps it (null: an administrator). */
  issued_by: z.strictObject({ issuer: z.string(), subject: z.string() }).nullable().optional(),
  purpose: z.enum(['assistant', 'connector']).nullable().optional(),
  /** The only canvases the token may name (the canvas chat's turn token); null or absent: every canvas it may reach. */
  canvases: z
    .array(z.strictObject({ project_id: z.string(), canvas_id: z.string() }))
    .nullable()
    .optional(),
  /** Tool sets beyond the six its owner enabled (docs/contract.md, "Tools beyond the six"); absent: none. */
  tool_sets: ToolSetList.optional(),
});

export const IntrospectionResponse = z.discriminatedUnion('active', [
  z.strictObject({ active: z.literal(true), principal: IntrospectedPrincipal }),
  z.strictObject({ active: z.literal(false), reason: z.string() }),
]);
export type IntrospectionResponse = z.infer<typeof IntrospectionResponse>;
