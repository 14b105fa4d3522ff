import { z } from 'zod';
import { BatchReceipt, CanvasSnapshot, CreateEdgeReceipt, CreateNodeReceipt, DeleteNodeReceipt } from './canvas.js';
import { CanvasEdge } from './edge.js';
import { ToolErrorResult } from './errors.js';
import { BaseRevision, CanvasId, ClientSaveId, NodeId, ProjectId, ResourceId, RunId } from './identifiers.js';
import { CanvasNode, PublishedCanvasNode } from './node.js';
import { CancelRunResult, NodeRun, RunEstimate } from './node-run.js';
import { ChangesBody, TidyBody } from './layout-changes.js';
import { ExportCreateBody, ExportView } from './exports.js';
import { CommentCreateBody, ThreadStatusBody, ThreadView } from './review.js';
import { SkillCatalog } from './skills.js';
import { IdempotencyKey } from './idempotency.js';

/** Spec section "Tool argument shapes": every arguments object allows no unknown properties. */

export const ListZoneSkillsArgs = z.strictObject({});

export const GetCanvasArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
});

export const CreateCanvasNodeArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  node: CanvasNode,
  base_revision: BaseRevision,
  client_save_id: ClientSaveId,
});

export const DeleteCanvasNodeArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  node_id: NodeId,
  base_revision: BaseRevision,
  client_save_id: ClientSaveId,
});

export const NodeRunArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  run_id: RunId,
});

/** What tools/list publishes for create_canvas_node: the same arguments over the spec's node types only. */
const PublishedCreateCanvasNodeArgs = CreateCanvasNodeArgs.extend({ node: PublishedCanvasNode });

export type ListZoneSkillsArgs = z.infer<typeof ListZoneSkillsArgs>;
export type GetCanvasArgs = z.infer<typeof GetCanvasArgs>;
export type CreateCanvasNodeArgs = z.infer<typeof CreateCanvasNodeArgs>;
export type DeleteCanvasNodeArgs = z.infer<typeof DeleteCanvasNodeArgs>;
export type NodeRunArgs = z.infer<typeof NodeRunArgs>;

function toolContract<I extends z.ZodType, O extends z.ZodType>(input: I, success: O, publishedInput?: z.ZodType) {
  // The published output schema is success | error: the official SDK client validates structuredContent of
  // isError results against the outputSchema too. `publishedInput`, when given, is what tools/list shows of `input`.
  return { input, success, output: z.union([success, ToolErrorResult]), ...(publishedInput ? { publishedInput } : {}) };
}

/** The six published tools, in the spec's order. */
export const TOOL_CONTRACTS = {
  list_zone_skills: toolContract(ListZoneSkillsArgs, SkillCatalog),
  get_canvas: toolContract(GetCanvasArgs, CanvasSnapshot),
  create_canvas_node: toolContract(CreateCanvasNodeArgs, CreateNodeReceipt, PublishedCreateCanvasNodeArgs),
  delete_canvas_node: toolContract(DeleteCanvasNodeArgs, DeleteNodeReceipt),
  get_canvas_node_run: toolContract(NodeRunArgs, NodeRun),
  cancel_canvas_node_run: toolContract(NodeRunArgs, CancelRunResult),
} as const;

export type PublishedToolName = keyof typeof TOOL_CONTRACTS;

/**
 * Tools the registry holds beyond the published six (spec: Rules 2 and 4). They are neither listed nor callable
 * unless the server is started with --enable-hidden-tools.
 */
export const SubmitCanvasNodeRunArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  node_id: NodeId,
  idempotency_key: IdempotencyKey.optional().meta({
    description: 'Reuse the same key when retrying one submission: the same key and input return the same run.',
  }),
});
export type SubmitCanvasNodeRunArgs = z.infer<typeof SubmitCanvasNodeRunArgs>;

export const CreateCanvasEdgeArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  edge: CanvasEdge,
  base_revision: BaseRevision,
  client_save_id: ClientSaveId,
});
export type CreateCanvasEdgeArgs = z.infer<typeof CreateCanvasEdgeArgs>;

/** An atomic batch of layout operations, one revision (the REST `…/changes` body, addressed like the tools). */
export const ApplyCanvasChangesArgs = ChangesBody.extend({
  project_id: ProjectId,
  canvas_id: CanvasId,
});
export type ApplyCanvasChangesArgs = z.infer<typeof ApplyCanvasChangesArgs>;

export const EstimateCanvasNodeRunArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  node_id: NodeId,
});
export type EstimateCanvasNodeRunArgs = z.infer<typeof EstimateCanvasNodeRunArgs>;

/** Export a storyboard (the `exports` tool set): the REST body under `export`, addressed like the tools. */
export const ExportBoardArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  export: ExportCreateBody,
});
export type ExportBoardArgs = z.infer<typeof ExportBoardArgs>;

export const GetExportArgs = z.strictObject({ project_id: ProjectId, canvas_id: CanvasId, export_id: ResourceId });
export type GetExportArgs = z.infer<typeof GetExportArgs>;

/** Lay out nodes again (the `layout` tool set): the REST tidy body, addressed like the tools. */
export const TidyCanvasArgs = TidyBody.extend({ project_id: ProjectId, canvas_id: CanvasId });
export type TidyCanvasArgs = z.infer<typeof TidyCanvasArgs>;

/** Reply in a comment thread (the `review` tool set; docs/contract.md, "Review tools and comment resources"). */
export const ReplyToCommentArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  thread_id: ResourceId,
  body: CommentCreateBody.shape.body,
});
export type ReplyToCommentArgs = z.infer<typeof ReplyToCommentArgs>;

export const ResolveCommentThreadArgs = z.strictObject({
  project_id: ProjectId,
  canvas_id: CanvasId,
  thread_id: ResourceId,
  status: ThreadStatusBody.shape.status.default('resolved'),
});
export type ResolveCommentThreadArgs = z.infer<typeof ResolveCommentThreadArgs>;

export const HIDDEN_TOOL_CONTRACTS = {
  submit_canvas_node_run: toolContract(SubmitCanvasNodeRunArgs, NodeRun),
  create_canvas_edge: toolContract(CreateCanvasEdgeArgs, CreateEdgeReceipt),
  apply_canvas_changes: toolContract(ApplyCanvasChangesArgs, BatchReceipt),
  estimate_canvas_node_run: toolContract(EstimateCanvasNodeRunArgs, RunEstimate),
  export_board: toolContract(ExportBoardArgs, ExportView),
  get_export: toolContract(GetExportArgs, ExportView),
  tidy_canvas: toolContract(TidyCanvasArgs, BatchReceipt),
  reply_to_comment: toolContract(ReplyToCommentArgs, ThreadView),
  resolve_comment_thread: toolContract(ResolveCommentThreadArgs, ThreadView),
} as const;
export type HiddenToolName = keyof typeof HIDDEN_TOOL_CONTRACTS;
export const PUBLISHED_TOOL_NAMES = Object.keys(TOOL_CONTRACTS) as PublishedToolName[];

export function isPublishedToolName(name: string): name is PublishedToolName {
  return Object.hasOwn(TOOL_CONTRACTS, name);
}
