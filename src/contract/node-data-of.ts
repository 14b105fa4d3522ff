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

type AnyNodeData = CanvasNode['data'];
/** A field of the data shape of at least one node type. */
export type NodeDataField = AnyNodeData extends infer Data ? (Data extends unknown ? keyof Data : never) : never;
/** The values `field` takes in the data shapes of the node types that have it. */
export type NodeDataFieldValue<K extends NodeDataField> = AnyNodeData extends infer Data
  ? Data extends unknown
    ? K extends keyof Data
      ? Data[K]
      : never
    : never
  : never;

/**
 * A field several node types share (a title, a prompt, an aspect ratio), typed by the data shapes of the types that
 * have it, whatever the node's type: undefined where it is not set, for a node of a type without it, or no node.
 */
export function dataFieldOf<K extends NodeDataField>(
  node: CanvasNode | null | undefined,
  field: K,
): NodeDataFieldValue<K> | undefined {
  // The union of data shapes has no common index: the field is read here, once, as the shapes that have it type it.
  return node ? (node.data as Partial<Record<K, NodeDataFieldValue<K>>>)[field] : undefined;
}
