import type {
  Drawing,
  ProjectView,
  ApplyCanvasChangesArgs,
  CreateCanvasEdgeArgs,
  CreateCanvasNodeArgs,
  DeleteCanvasNodeArgs,
  EstimateCanvasNodeRunArgs,
  GetCanvasArgs,
  HistoryPage,
  NodeRunArgs,
  SubmitCanvasNodeRunArgs,
  ExportBoardArgs,
  RunApprovalView,
  GetExportArgs,
  TidyCanvasArgs,
  ReplyToCommentArgs,
  ResolveCommentThreadArgs,
  ThreadList,
} from '../contract/index.js';
import type { IdentityHeaders } from '../backend/auth/caller.js';
import type { TokenPrincipal } from '../backend/auth/principal.js';
import type { Need } from '../backend/auth/access.js';
import type { JsonPayload } from '../shared/json-payload.js';
import type { ConnectorAccess } from '../oauth/authorization-server.js';
import type { BoardView } from '../shared/board-target.js';

/**
 * Everything the tool server needs from the canvas backend. Two implementations: in-process (the default
 * `serve`, calling the backend's operations directly) and HTTP (a gateway in front of a separately run
 * backend). Both enforce the same rules because the backend does; both answer serialized JSON, so the hot
 * path never re-serializes a cached canvas.
 */

/** The caller of one tool call, as received: verified principal plus the identity headers to forward. */
export interface ToolCaller {
  principal: TokenPrincipal;
  identity: IdentityHeaders;
  requestId: string;
  /** The OAuth grant the request came through (src/oauth/), when it did. */
  connector?: ConnectorAccess;
  /** The tool sets the request asked for (the X-MCP-Toolsets header), or null when it named none. */
  requestedToolSets?: readonly string[] | null;
  /** The credits a person confirmed for this call's run: a dearer run is refused (src/mcp/spend-confirmation.ts). */
  spendCeiling?: number;
}

export interface BackendClient {
  readonly mode: 'in-process' | 'http';
  /** Verifies a bearer token issued for the tool server; throws CanvasError unauthenticated. */
  authenticate(token: string): Promise<TokenPrincipal>;
  /**
   * Checks the caller's rights on a project before its arguments are parsed in full, so a caller without rights
   * cannot make the server validate a large body (docs/security.md).
   */
  authorize(caller: ToolCaller, projectId: string, need: Need): Promise<void>;
  listSkills(caller: ToolCaller): Promise<JsonPayload>;
  getCanvas(caller: ToolCaller, args: GetCanvasArgs): Promise<JsonPayload>;
  createNode(caller: ToolCaller, args: CreateCanvasNodeArgs): Promise<JsonPayload>;
  deleteNode(caller: ToolCaller, args: DeleteCanvasNodeArgs): Promise<JsonPayload>;
  getRun(caller: ToolCaller, args: NodeRunArgs): Promise<JsonPayload>;
  cancelRun(caller: ToolCaller, args: NodeRunArgs): Promise<JsonPayload>;
  submitRun(caller: ToolCaller, args: SubmitCanvasNodeRunArgs): Promise<JsonPayload>;
  createEdge(caller: ToolCaller, args: CreateCanvasEdgeArgs): Promise<JsonPayload>;
  /** An atomic batch of layout operations (the MCP App's edits: moves, text, deletes), one revision. */
  applyChanges(caller: ToolCaller, args: ApplyCanvasChangesArgs): Promise<JsonPayload>;
  estimateRun(caller: ToolCaller, args: EstimateCanvasNodeRunArgs): Promise<JsonPayload>;
  /** Starts an export of a storyboard (the `exports` tool set). */
  exportBoard(caller: ToolCaller, args: ExportBoardArgs): Promise<JsonPayload>;
  getExport(caller: ToolCaller, args: GetExportArgs): Promise<JsonPayload>;
  /** Stops an export (an export answered as a task, cancelled with tasks/cancel); one that ended answers as it is. */
  cancelExport(caller: ToolCaller, args: GetExportArgs): Promise<JsonPayload>;
  /** An agent's paid run asks a person's approval in the canvas; answers where it stands. */
  askRunApproval(
    caller: ToolCaller,
    args: { project_id: string; canvas_id: string; node_id: string; idempotency_key: string },
  ): Promise<RunApprovalView>;
  /** Lays out nodes again as one revision (the `layout` tool set). */
  tidyCanvas(caller: ToolCaller, args: TidyCanvasArgs): Promise<JsonPayload>;
  /** Replies in a comment thread as the agent (the `review` tool set); answers the thread. */
  replyToComment(caller: ToolCaller, args: ReplyToCommentArgs): Promise<JsonPayload>;
  /** Resolves or reopens a comment thread (the `review` tool set); answers the thread. Agents never approve. */
  resolveCommentThread(caller: ToolCaller, args: ResolveCommentThreadArgs): Promise<JsonPayload>;
  /**
   * A canvas's comment threads, or one node's (the threads resources), read with the caller's rights: viewers may
   * read them, whatever the caller's tool sets.
   */
  listThreads(
    caller: ToolCaller,
    args: { project_id: string; canvas_id: string; node_id?: string; filter: 'all' | 'open' | 'resolved' },
  ): Promise<ThreadList>;
  /** A page of a canvas's revisions, newest first, before `before` (the canvas-changes resource). */
  canvasHistory(
    caller: ToolCaller,
    args: { project_id: string; canvas_id: string; before: number; limit: number },
  ): Promise<HistoryPage>;
  /** A shot's drawing (the shot-drawing resource), read with the caller's rights. */
  shotDrawing(
    caller: ToolCaller,
    args: { project_id: string; canvas_id: string; node_id: string; shot_id: string },
  ): Promise<Drawing>;
  /** A view of a canvas as a picture (the canvas-board-image resource), read with the caller's rights. */
  boardImage(
    caller: ToolCaller,
    args: { project_id: string; canvas_id: string; view: BoardView },
  ): Promise<{ bytes: Buffer; mimeType: string }>;
  /** Sizes of run outputs by asset id, for resource links; `url` is the output's signed URL (what a gateway asks). */
  assetSizes(outputs: ReadonlyArray<{ assetId: string; url: string }>): Promise<Map<string, number>>;
  /** The projects and canvases the caller can open (MCP completions offer them). */
  reachableProjects(caller: ToolCaller): Promise<ProjectView[]>;
  /** Throws when the backend cannot serve (for /readyz). */
  ready(): Promise<void>;
}
