import type { CanvasEdge, CanvasNode, LayoutOperation, NodeUpdate } from '../../../src/contract/index.js';
import type { Author } from './layout.js';
import { authorLabel, type Layout } from './layout.js';
import type { Intent } from './canvas-state.js';

/**
 * The person's changes, as intents: each builds its operations on the layout it meets (the one the screen showed, or
 * the one re-read after a conflict) and says plainly when it no longer applies.
 */

function nameOf(node: CanvasNode | undefined, id: string): string {
  const displayName = node?.data.displayName;
  return typeof displayName === 'string' && displayName ? displayName : id;
}

function gone(what: string, id: string, authors: Record<string, Author | null>): { notApplicable: string } {
  return {
    notApplicable: `${what}: "${id}" was deleted by ${authorLabel(authors[id])} meanwhile, so your change was not applied.`,
  };
}

export function moveNodes(
  moves: Array<{ id: string; position: { x: number; y: number } }>,
  authors: () => Record<string, Author | null>,
): Intent {
  return {
    label: moves.length === 1 ? 'Move' : `Move ${moves.length} nodes`,
    build(layout) {
      const present = new Map(layout.nodes.map((node) => [node.id, node]));
      const operations: LayoutOperation[] = moves
        .filter((move) => present.has(move.id))
        .filter((move) => {
          const current = present.get(move.id)!.position;
          return current.x !== move.position.x || current.y !== move.position.y;
        })
        .map((move) => ({ op: 'update_node', node_id: move.id, set: { position: move.position } }));
      if (operations.length === 0 && moves.every((move) => !present.has(move.id)))
        return gone('Move', moves[0]!.id, authors());
      return operations;
    },
  };
}

export function updateNode(
  id: string,
  set: NodeUpdate,
  label: string,
  authors: () => Record<string, Author | null>,
  keep?: string,
): Intent {
  return {
    label,
    ...(keep ? { keep } : {}),
    build(layout) {
      if (!layout.nodes.some((node) => node.id === id)) return gone(label, id, authors());
      return [{ op: 'update_node', node_id: id, set }];
    },
  };
}

/** A full replacement of a node's data with `patch` applied to what it has now (so another field someone else changed is kept). */
export function patchData(
  id: string,
  patch: Record<string, unknown>,
  label: string,
  authors: () => Record<string, Author | null>,
  keep?: string,
): Intent {
  return {
    label,
    ...(keep ? { keep } : {}),
    build(layout) {
      const node = layout.nodes.find((candidate) => candidate.id === id);
      if (!node) return gone(label, id, authors());
      return [
        { op: 'update_node', node_id: id, set: { data: { ...(node.data as Record<string, unknown>), ...patch } } },
      ];
    },
  };
}

export function createItems(nodes: CanvasNode[], edges: CanvasEdge[], label: string): Intent {
  return {
    label,
    build(layout) {
      const ids = new Set(layout.nodes.map((node) => node.id));
      const missingParent = nodes.find(
        (node) =>
          node.parentId !== undefined && !ids.has(node.parentId) && !nodes.some((other) => other.id === node.parentId),
      );
      const placed = nodes.map((node) =>
        node === missingParent ? (({ parentId: _parent, extent: _extent, ...rest }) => rest as CanvasNode)(node) : node,
      );
      return [
        ...placed.map((node) => ({ op: 'create_node' as const, node })),
        ...edges.map((edge) => ({ op: 'create_edge' as const, edge })),
      ];
    },
  };
}

export function deleteItems(nodeIds: string[], edgeIds: string[], layout: Layout): Intent {
  const names = nodeIds.map((id) =>
    nameOf(
      layout.nodes.find((node) => node.id === id),
      id,
    ),
  );
  return {
    label:
      nodeIds.length === 1 && edgeIds.length === 0
        ? `Delete "${names[0]}"`
        : `Delete ${nodeIds.length + edgeIds.length} items`,
    build(current) {
      const nodes = new Set(current.nodes.map((node) => node.id));
      const deletedNodes = new Set(nodeIds.filter((id) => nodes.has(id)));
      // An edge goes with its node: delete only the edges that stay behind.
      const edges = current.edges.filter(
        (edge) => edgeIds.includes(edge.id) && !deletedNodes.has(edge.source) && !deletedNodes.has(edge.target),
      );
      return [
        ...edges.map((edge) => ({ op: 'delete_edge' as const, edge_id: edge.id })),
        ...[...deletedNodes].map((id) => ({ op: 'delete_node' as const, node_id: id })),
      ];
    },
  };
}

export function connect(edge: CanvasEdge, authors: () => Record<string, Author | null>): Intent {
  return {
    label: 'Connect',
    build(layout) {
      for (const end of [edge.source, edge.target])
        if (!layout.nodes.some((node) => node.id === end)) return gone('Connect', end, authors());
      return [{ op: 'create_edge', edge }];
    },
  };
}
