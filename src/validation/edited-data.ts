import type { z } from 'zod';
import { NODE_DATA_SCHEMAS, type ChangesBody, type NodeType, type UpdateNodeBody } from '../contract/index.js';
import { invalidArguments, type CanvasError } from '../shared/errors.js';

/**
 * An edit's `set.data` is free-form in the request schema: which shape it must have depends on the type of the node
 * it edits, which only the store knows. Checked inside the write, a large invalid one held the event loop (150 ms for
 * 80,000 unknown keys), so for a large body the edge checks it on the worker too, against the types the store
 * reports. The write still checks every edited node: it is the authority when a node changed in between.
 */

export interface EditedData {
  /** Where the data is in the request body: `set.data`, `operations.3.set.data`. */
  path: Array<string | number>;
  nodeId: string;
  data: unknown;
  /** The node's type when the body itself creates the node before editing it; `stored` when only the store knows. */
  type: NodeType | 'stored' | 'deleted';
}

const DELETED = 'deleted';

/** The data every edit in a body (already valid for its schema) sets, in order. */
export function editedDataOf(body: unknown, schema: string, editedNodeId: string | undefined): EditedData[] {
  if (schema === 'UpdateNodeBody') {
    const { set } = body as z.input<typeof UpdateNodeBody>;
    return set.data === undefined || editedNodeId === undefined
      ? []
      : [{ path: ['set', 'data'], nodeId: editedNodeId, data: set.data, type: 'stored' }];
  }
  if (schema !== 'ChangesBody') return [];
  const edits: EditedData[] = [];
  // What the batch itself did to a node before an edit of it: created it with a type, or deleted it.
  const earlier = new Map<string, NodeType | typeof DELETED>();
  (body as z.input<typeof ChangesBody>).operations.forEach((operation, index) => {
    if (operation.op === 'create_node') earlier.set(operation.node.id, operation.node.type);
    else if (operation.op === 'delete_node') earlier.set(operation.node_id, DELETED);
    else if (operation.op === 'update_node' && operation.set.data !== undefined) {
      const path = ['operations', index, 'set', 'data'];
      edits.push({
        path,
        nodeId: operation.node_id,
        data: operation.set.data,
        type: earlier.get(operation.node_id) ?? 'stored',
      });
    }
  });
  return edits;
}

/** The first edit whose data does not match its node's type, as invalid_arguments naming the fields; or null. */
export function editedDataFault(edits: EditedData[], storedTypes: Record<string, string>): CanvasError | null {
  for (const edit of edits) {
    const type = edit.type === 'stored' ? storedTypes[edit.nodeId] : edit.type;
    // A node that does not exist is the write's to report (not_found).
    if (type === undefined || type === DELETED || !(type in NODE_DATA_SCHEMAS)) continue;
    const result = NODE_DATA_SCHEMAS[type as NodeType].safeParse(edit.data);
    if (!result.success) return invalidArguments(result.error, edit.data, edit.path);
  }
  return null;
}

/** The nodes whose stored type is needed to check the data edits set. */
export function nodesToLookUp(edits: EditedData[]): string[] {
  return [...new Set(edits.filter((edit) => edit.type === 'stored').map((edit) => edit.nodeId))];
}
