import { z } from 'zod';
import { CanvasEdge } from './edge.js';
import { CanvasId, ClientSaveId, NodeId, ProjectId, ResourceId, RunChainId, RunId } from './identifiers.js';
import { CanvasNode } from './node.js';
import { ElementView } from './elements.js';
import { ExternalRunStatus } from './node-data/common.js';
import { AssetKind, RunOutput, RunStatus } from './node-run.js';

/** The canvas read (spec section "Canvas") and the save receipts of writes. */

/** The snapshot contract version a reader must send; a missing or different version is a contract error. */
export const SNAPSHOT_CONTRACT_VERSION = 'canvas-snapshot.v2';

export const Revision = z.int().min(0);

export const CanvasLayout = z.strictObject({
  revision: Revision.meta({ description: 'Pass this as base_revision to create_canvas_node / delete_canvas_node.' }),
  nodes: z.array(CanvasNode),
  edges: z.array(CanvasEdge),
});
export type CanvasLayout = z.infer<typeof CanvasLayout>;

/** An asset a run produces. Its identity is listed while it is still pending. */
export const RunResource = z.strictObject({
  asset_id: z.string(),
  kind: AssetKind,
  status: z.enum(['pending', 'ready', 'failed', 'cancelled']),
  url: z.string().nullable(),
});
export type RunResource = z.infer<typeof RunResource>;

/**
 * Runtime presentation state of one node, from its latest node run. Authoritative for display, never part of
 * the layout, never to be sent back as a layout payload.
 */
export const NodeRuntimeState = z.strictObject({
  externalRunId: z.string().nullable(),
  externalRunStatus: ExternalRunStatus.nullable(),
  lastRunStatus: RunStatus,
  isGenerating: z.boolean(),
  progress: z.strictObject({ percent: z.number().nullable(), message: z.string().nullable() }),
  outputs: z.array(RunOutput),
  resources: z.array(RunResource),
  generationError: z.string().nullable(),
  generationStartedAt: z.number().nullable().meta({
    description:
      'When the latest run started (milliseconds since the epoch); null while it is queued or if it never started.',
  }),
  updatedAt: z.string(),
});
export type NodeRuntimeState = z.infer<typeof NodeRuntimeState>;

/** The canvas read. The spec says the output allows additional properties. */
/** An area of the canvas that covers no node: `near` is `canvas` (past its end) or a board's id. */
export const FreeArea = z.strictObject({
  near: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type FreeArea = z.infer<typeof FreeArea>;

export const CanvasSnapshot = z.looseObject({
  snapshot_version: z.literal(SNAPSHOT_CONTRACT_VERSION),
  project_id: ProjectId,
  canvas_id: CanvasId,
  locked: z.boolean().meta({ description: 'A locked canvas is read-only: every write is refused.' }),
  layout: CanvasLayout,
  node_states: z.record(z.string(), NodeRuntimeState).meta({
    description: 'Runtime state per node id (runs, progress, results). Never part of the layout.',
  }),
  // Beyond the spec's read (its output allows additional properties): each node's result versions.
  result_versions: z
    .record(z.string(), z.strictObject({ count: z.int().min(1), current_run_id: z.string() }))
    .optional()
    .meta({
      description:
        'Per node with succeeded runs: how many result versions, and which is current (picked, else the latest).',
    }),
  active_chains: z.array(RunChainId).optional().meta({
    description:
      'Downstream chains ("Run from here") with a step still queued, running or asked to stop; absent when there are none.',
  }),
  // Beyond the spec's read: where new nodes fit without covering any.
  free_areas: z.array(FreeArea).optional().meta({
    description:
      "get_canvas only: areas that cover no node, one past the canvas's end ('canvas') and one beside each board (its id); place new nodes inside one.",
  }),
  // Beyond the spec's read: the board as a picture (an MCP resource of image content).
  board_image_uri: z.string().optional().meta({
    description:
      'get_canvas only: the canvas as a PNG (resources/read); add ?node_id= for a storyboard or group, ?x=&y=&width=&height= for a region, &format=webp.',
  }),
  // Beyond the spec's read: what an agent needs to keep cast and places consistent.
  elements: z.array(ElementView).optional().meta({
    description:
      "get_canvas only: the project's elements (cast, locations, props, styles) with their reference pictures; absent when it has none.",
  }),
});
export type CanvasSnapshot = z.infer<typeof CanvasSnapshot>;

/** The REST snapshot read's query: `include=elements` adds the project's elements, as get_canvas answers them. */
export const SnapshotQuery = z.object({
  include: z
    .string()
    .regex(/^(elements|free_areas)(,(elements|free_areas))*$/, { error: 'must list elements and/or free_areas' })
    .optional()
    .meta({
      description: "What get_canvas adds, comma-separated: elements (the project's), free_areas (room for new nodes).",
    }),
});

const receiptFields = {
  project_id: ProjectId,
  canvas_id: CanvasId,
  revision: Revision.meta({ description: 'The canvas revision after this write: use it as the next base_revision.' }),
  previous_revision: Revision,
  client_save_id: ClientSaveId,
  replayed: z.boolean().meta({
    description:
      'True when this receipt is the stored answer to an earlier identical request (same client_save_id and arguments).',
  }),
  saved_at: z.string(),
};

export const CreateNodeReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('create_node'),
  node_id: NodeId,
});
export type CreateNodeReceipt = z.infer<typeof CreateNodeReceipt>;

const deletedNodeFields = {
  node_id: NodeId,
  deleted_edge_ids: z.array(ResourceId),
  reparented_node_ids: z.array(NodeId).meta({
    description: 'Children of the deleted node, moved to its parent (or the canvas root) keeping their place.',
  }),
  cancelled_run_ids: z.array(RunId).meta({
    description: 'Active runs of the deleted node whose cancellation was requested (a queued one is never charged).',
  }),
};

export const DeleteNodeReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('delete_node'),
  ...deletedNodeFields,
});
export type DeleteNodeReceipt = z.infer<typeof DeleteNodeReceipt>;

export const UpdateNodeReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('update_node'),
  node_id: NodeId,
});
export type UpdateNodeReceipt = z.infer<typeof UpdateNodeReceipt>;

export const CreateEdgeReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('create_edge'),
  edge_id: ResourceId,
});
export type CreateEdgeReceipt = z.infer<typeof CreateEdgeReceipt>;

export const DeleteEdgeReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('delete_edge'),
  edge_id: ResourceId,
});
export type DeleteEdgeReceipt = z.infer<typeof DeleteEdgeReceipt>;

/** What one operation of a batch did, in the order given. */
export const OperationResult = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('create_node'), node_id: NodeId }),
  z.strictObject({ op: z.literal('update_node'), node_id: NodeId }),
  z.strictObject({ op: z.literal('delete_node'), ...deletedNodeFields }),
  z.strictObject({ op: z.literal('create_edge'), edge_id: ResourceId }),
  z.strictObject({ op: z.literal('delete_edge'), edge_id: ResourceId }),
]);
export type OperationResult = z.infer<typeof OperationResult>;

export const BatchReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('batch'),
  results: z.array(OperationResult),
});
export type BatchReceipt = z.infer<typeof BatchReceipt>;

export const RevertReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('revert'),
  to_revision: Revision,
  changed_node_ids: z.array(NodeId),
  changed_edge_ids: z.array(ResourceId),
  cancelled_run_ids: z.array(RunId),
});
export type RevertReceipt = z.infer<typeof RevertReceipt>;

/**
 * Undo of one chat run's changes (docs/chat.md, "Undo a conversation"): every node and edge the run changed goes back
 * to what it was before the run first changed it, as one new revision; one that somebody else changed after the run did
 * is left as they made it, and listed in `kept`.
 */
export const UndoChatRunReceipt = z.looseObject({
  ...receiptFields,
  operation: z.literal('undo_chat_run'),
  agent_run_id: z.string(),
  changed_node_ids: z.array(NodeId),
  changed_edge_ids: z.array(ResourceId),
  cancelled_run_ids: z.array(RunId),
  kept: z.array(
    z.strictObject({
      kind: z.enum(['node', 'edge']),
      id: z.string(),
      revision: Revision.meta({ description: 'The later revision that changed it.' }),
      by: z.string().meta({ description: 'Who made that revision: a person, an agent or the system, in words.' }),
    }),
  ),
});
export type UndoChatRunReceipt = z.infer<typeof UndoChatRunReceipt>;

export type SaveReceipt =
  | UndoChatRunReceipt
  | CreateNodeReceipt
  | DeleteNodeReceipt
  | UpdateNodeReceipt
  | CreateEdgeReceipt
  | DeleteEdgeReceipt
  | BatchReceipt
  | RevertReceipt;
