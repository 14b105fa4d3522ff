import {
  CanvasNode,
  type CanvasEdge,
  type LayoutOperation,
  type NodeUpdate,
  type OperationResult,
} from '../../contract/index.js';
import { reparentChild } from '../../canvas/rules.js';
import { CanvasError, invalidArguments } from '../../shared/errors.js';
import type { LayoutTx } from './layout-tx.js';
import { followLensLinks } from './lens-links.js';

/**
 * The five layout operations, each applied to the transaction's layout. `at` is the request path of the operation
 * (`node`, `set`, `operations.3`, …): every refusal names the offending field through it.
 */

function field(at: string, name: string): string {
  return at ? `${at}.${name}` : name;
}

function invalidField(path: string, message: string): CanvasError {
  return new CanvasError('invalid_arguments', `Invalid arguments: ${path}: ${message}`, {
    issues: [{ path, message }],
  });
}

function missingNode(path: string, id: string): CanvasError {
  return new CanvasError('not_found', `No node with id ${JSON.stringify(id)} on this canvas.`, { node_id: id, path });
}

export async function createNode(layout: LayoutTx, node: CanvasNode, at: string): Promise<OperationResult> {
  const path = field(at, 'node');
  if (node.parentId !== undefined) {
    if (node.parentId === node.id) throw invalidField(`${path}.parentId`, 'a node cannot be its own parent');
    if (!(await layout.node(node.parentId))) {
      throw invalidField(`${path}.parentId`, `${JSON.stringify(node.parentId)} names no node on this canvas.`);
    }
  }
  await layout.insertNode(node, path);
  await followLensLinks(layout, undefined, node);
  return { op: 'create_node', node_id: node.id };
}

/** The node with the update applied: set fields replace, null removes, `data` replaces the whole data object. */
function applyUpdate(node: CanvasNode, set: NodeUpdate): Record<string, unknown> {
  const next: Record<string, unknown> = { ...node };
  for (const [key, value] of Object.entries(set)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

async function createsCycle(layout: LayoutTx, nodeId: string, newParentId: string): Promise<boolean> {
  const seen = new Set<string>();
  for (let current: string | undefined = newParentId; current !== undefined;) {
    if (current === nodeId) return true;
    if (seen.has(current)) return false;
    seen.add(current);
    current = (await layout.node(current))?.node.parentId;
  }
  return false;
}

export async function updateNode(
  layout: LayoutTx,
  nodeId: string,
  set: NodeUpdate,
  at: string,
): Promise<OperationResult> {
  const stored = await layout.node(nodeId);
  if (!stored) throw missingNode(field(at, 'node_id'), nodeId);
  const setPath = field(at, 'set');
  const candidate = applyUpdate(stored.node, set);
  const parsed = CanvasNode.safeParse(candidate);
  // Paths name the field of the request that made the node invalid: `set.data.prompt`, `set.position.x`.
  if (!parsed.success) throw invalidArguments(parsed.error, candidate, setPath.split('.'));
  const node = parsed.data;
  if (set.parentId) {
    if (set.parentId === nodeId) throw invalidField(`${setPath}.parentId`, 'a node cannot be its own parent');
    if (!(await layout.node(set.parentId))) {
      throw invalidField(`${setPath}.parentId`, `${JSON.stringify(set.parentId)} names no node on this canvas.`);
    }
    if (await createsCycle(layout, nodeId, set.parentId)) {
      throw invalidField(`${setPath}.parentId`, 'would make the node a descendant of itself');
    }
  }
  await layout.replaceNode(stored, node, setPath);
  await followLensLinks(layout, stored.node, node);
  if (set.parentId) await layout.keepAfterParent(nodeId);
  return { op: 'update_node', node_id: nodeId };
}

/**
 * Deletes one node with its connected edges; its children move to its parent keeping their place
 * (src/canvas/rules.ts); its active runs are asked to stop.
 */
export async function deleteNode(
  layout: LayoutTx,
  nodeId: string,
  at: string,
): Promise<Extract<OperationResult, { op: 'delete_node' }>> {
  const stored = await layout.node(nodeId);
  if (!stored) throw missingNode(field(at, 'node_id'), nodeId);
  // Its edges, children and active runs, read together before any of them changes.
  const { edges, childIds, runs } = await layout.surroundings(nodeId, stored.seq);
  for (const edge of edges) await layout.removeReadEdge(edge);
  const reparentedNodeIds: string[] = [];
  for (const childId of childIds) {
    const child = (await layout.node(childId))!;
    await layout.replaceNode(child, reparentChild(child.node, stored.node), field(at, 'node_id'));
    reparentedNodeIds.push(childId);
  }
  const cancelledRunIds = await layout.cancelRuns(runs);
  await layout.removeNode(stored);
  return {
    op: 'delete_node',
    node_id: nodeId,
    deleted_edge_ids: edges.map((edge) => edge.id),
    reparented_node_ids: reparentedNodeIds,
    cancelled_run_ids: cancelledRunIds,
  };
}

export async function createEdge(layout: LayoutTx, edge: CanvasEdge, at: string): Promise<OperationResult> {
  const path = field(at, 'edge');
  if (!(await layout.node(edge.source)))
    throw invalidField(`${path}.source`, `${JSON.stringify(edge.source)} names no node on this canvas.`);
  if (!(await layout.node(edge.target)))
    throw invalidField(`${path}.target`, `${JSON.stringify(edge.target)} names no node on this canvas.`);
  await layout.insertEdge(edge, path);
  return { op: 'create_edge', edge_id: edge.id };
}

export async function deleteEdge(layout: LayoutTx, edgeId: string, at: string): Promise<OperationResult> {
  if (!(await layout.removeEdge(edgeId))) {
    throw new CanvasError('not_found', `No edge with id ${JSON.stringify(edgeId)} on this canvas.`, {
      edge_id: edgeId,
      path: field(at, 'edge_id'),
    });
  }
  return { op: 'delete_edge', edge_id: edgeId };
}

export async function applyOperation(
  layout: LayoutTx,
  operation: LayoutOperation,
  at: string,
): Promise<OperationResult> {
  switch (operation.op) {
    case 'create_node':
      return createNode(layout, operation.node, at);
    case 'update_node':
      return updateNode(layout, operation.node_id, operation.set, at);
    case 'delete_node':
      return deleteNode(layout, operation.node_id, at);
    case 'create_edge':
      return createEdge(layout, operation.edge, at);
    case 'delete_edge':
      return deleteEdge(layout, operation.edge_id, at);
  }
}
