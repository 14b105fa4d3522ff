import { z } from 'zod';
import { NodeId, ResourceId } from './identifiers.js';
import { FreeFormObject, NullableString, Str } from './node-data/common.js';

/**
 * A connection between two nodes. The spec names edges (delete removes a node's connected edges) but not their
 * shape; this React-Flow-like shape is our decision (docs/contract.md).
 */
export const CanvasEdge = z
  .strictObject({
    id: ResourceId,
    source: NodeId,
    target: NodeId,
    sourceHandle: NullableString.optional(),
    targetHandle: NullableString.optional(),
    type: Str.optional(),
    label: Str.optional(),
    animated: z.boolean().optional(),
    hidden: z.boolean().optional(),
    data: FreeFormObject.optional(),
  })
  .meta({ id: 'CanvasEdge' });

export type CanvasEdge = z.infer<typeof CanvasEdge>;
