/**
 * The documented bounds of what one request may carry and what one canvas may hold (docs/contract.md, "Limits").
 * The spec sets none beyond identifier lengths; these keep one call from costing the server (or every later reader)
 * more than a bounded amount of work. Array and string bounds are part of the published JSON Schema; the nesting
 * depth and the size caps are checked at the edges and in the store.
 */
export const LIMITS = {
  /** Code points in any string of node or edge data (a prompt, a script, a URL, a data: URL included). */
  stringLength: 100_000,
  /** Nesting of any JSON value in a request body or tool arguments; free-form fields included. */
  jsonDepth: 64,
  /** One node, serialized as JSON. */
  nodeBytes: 512 * 1024,
  /** One edge, serialized as JSON. */
  edgeBytes: 64 * 1024,
  /** Nodes on one canvas. */
  canvasNodes: 20_000,
  /** Edges on one canvas. */
  canvasEdges: 50_000,
  /** The whole layout of one canvas (every node and edge body), serialized. */
  canvasBytes: 64 * 1024 * 1024,
  /**
   * |x| and |y| of a node's position: a node at 1e20 passed validation once and then no card was drawn at all.
   * Ten million is thousands of screens in every direction.
   */
  coordinate: 10_000_000,
  /** A node's (or its style's) width and height. */
  nodeExtent: 100_000,
  /**
   * Bytes of change log (the bodies a write leaves, as stored) one request may cause. A 60-byte revert of 20 nodes
   * of 400 KB once logged 8 MB: a small request must not make the store grow by a large amount.
   */
  changeLogBytes: 4 * 1024 * 1024,
  /** Field issues listed in one invalid_arguments answer; the total is always given. */
  reportedIssues: 50,
  /**
   * Pending deliveries one webhook endpoint may have: a receiver that is down for a day must not make the outbox grow
   * without end. Events past it are dropped for that endpoint and counted (`dropped_deliveries`).
   */
  pendingDeliveries: 10_000,
} as const;

/** Item bounds of the arrays in node data, by what they hold. */
export const ARRAY_LIMITS = {
  /** Lists a person edits by hand (marks, segments, frames, shots, clips, layer objects, batch results). */
  items: 1_000,
  /** Short lists (world sources, generation batch ids). */
  fewItems: 100,
} as const;
