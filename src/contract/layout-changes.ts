import { z } from 'zod';
import { CanvasEdge } from './edge.js';
import { BaseRevision, ClientSaveId, NodeId, ResourceId } from './identifiers.js';
import { CanvasNode, NodeExtent, NodeStyle, Position } from './node.js';
import { FreeFormObject } from './node-data/common.js';

/**
 * Layout changes beyond the published tools (spec: "Tools that modify an existing node: not shown"; docs/api.md):
 * editing a node, and atomic batches of node and edge changes, each one revision.
 */

export const MAX_BATCH_OPERATIONS = 200;

/**
 * What an edit may set: any envelope field but `id` and `type`, and `data` as a full replacement. `null` removes an
 * optional field (parentId: null moves the node to the canvas root). The node after the change must still be a
 * valid node of its type.
 */
export const NodeUpdate = z
  .strictObject({
    position: Position.optional(),
    width: NodeExtent.nullable().optional(),
    height: NodeExtent.nullable().optional(),
    style: NodeStyle.nullable().optional(),
    parentId: ResourceId.nullable().optional(),
    extent: z.literal('parent').nullable().optional(),
    expandParent: z.boolean().nullable().optional(),
    hidden: z.boolean().nullable().optional(),
    selected: z.boolean().nullable().optional(),
    draggable: z.boolean().nullable().optional(),
    selectable: z.boolean().nullable().optional(),
    connectable: z.boolean().nullable().optional(),
    deletable: z.boolean().nullable().optional(),
    zIndex: z.int().nullable().optional(),
    data: FreeFormObject.optional().meta({ description: 'The whole new data object; it must match the node type.' }),
  })
  .meta({ id: 'NodeUpdate' });
export type NodeUpdate = z.infer<typeof NodeUpdate>;

export const LayoutOperation = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('create_node'), node: CanvasNode }),
  z.strictObject({ op: z.literal('update_node'), node_id: NodeId, set: NodeUpdate }),
  z.strictObject({ op: z.literal('delete_node'), node_id: NodeId }),
  z.strictObject({ op: z.literal('create_edge'), edge: CanvasEdge }),
  z.strictObject({ op: z.literal('delete_edge'), edge_id: ResourceId }),
]);
export type LayoutOperation = z.infer<typeof LayoutOperation>;

export const UpdateNodeBody = z.strictObject({
  base_revision: BaseRevision,
  client_save_id: ClientSaveId,
  set: NodeUpdate,
});
export type UpdateNodeBody = z.infer<typeof UpdateNodeBody>;

export const ChangesBody = z.strictObject({
  base_revision: BaseRevision,
  client_save_id: ClientSaveId,
  operations: z
    .array(LayoutOperation)
    .min(1, { error: 'must hold at least one operation' })
    .max(MAX_BATCH_OPERATIONS, { error: `must hold at most ${MAX_BATCH_OPERATIONS} operations` }),
});
export type ChangesBody = z.infer<typeof ChangesBody>;

export const RevertBody = z.strictObject({
  base_revision: BaseRevision,
  client_save_id: ClientSaveId,
  to_revision: BaseRevision.meta({ description: 'The revision whose layout the canvas returns to.' }),
});
export type RevertBody = z.infer<typeof RevertBody>;

/** Tidy (docs/ui.md, "Tidy"): some nodes of one parent laid out again, as one revision of position changes. */
export const TidyBody = z
  .strictObject({
    base_revision: BaseRevision,
    client_save_id: ClientSaveId,
    node_ids: z
      .array(NodeId)
      .min(2, { error: 'must name at least two nodes' })
      .max(MAX_BATCH_OPERATIONS, { error: `must name at most ${MAX_BATCH_OPERATIONS} nodes` })
      .optional()
      .meta({ description: "The nodes to lay out, all of one parent; the canvas's top-level nodes when left out." }),
    mode: z
      .enum(['flow', 'grid'])
      .default('flow')
      .meta({ description: 'flow: along their connections, left to right; grid: packed in rows.' }),
  })
  .meta({ id: 'TidyBody' });
export type TidyBody = z.infer<typeof TidyBody>;

export const UndoChatRunBody = z
  .strictObject({ base_revision: BaseRevision, client_save_id: ClientSaveId })
  .meta({ id: 'UndoChatRunBody' });
export type UndoChatRunBody = z.infer<typeof UndoChatRunBody>;
