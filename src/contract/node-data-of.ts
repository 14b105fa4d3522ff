import type { CanvasNode, NodeDataOf, NodeType } from './node.js';

/**
 * The node's data, typed by the data shape registered for `type` (NODE_DATA_SCHEMAS), when the node is of that type;
 * null for a node of another type or no node. Reading a field this way needs no cast where it is read, and a node of
 * another type is never read as this one.
 */
export function dataOf<T extends NodeType>(node: CanvasNode | null | undefined, type: T): NodeDataOf<T> | null {
  // TypeScript narrows the union by a literal type, not by a type parameter: the check is made here, once.
  return node?.type === type ? (node.data as NodeDataOf<T>) : null;
}
