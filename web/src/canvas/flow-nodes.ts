import type { Edge } from '@xyflow/react';
import type { CanvasEdge, CanvasNode, NodeRuntimeState } from '../../../src/contract/index.js';
import { drawnPosition } from '../../../src/canvas/placement.js';
import { LIMITS } from '../../../src/contract/limits.js';
import type { FlowNode } from '../cards/card-data.js';
import { NODE_CARDS } from '../cards/index.js';

/** The canvas layout as React Flow nodes and edges: the card gets the node as stored, its run state and highlight. */

/**
 * How large a node is drawn. The contract bounds extents (LIMITS.nodeExtent), but a node stored before those bounds
 * may be 1e308 wide: React Flow and its minimap would then scale everything else out of sight.
 * It is drawn at the edge of the bounds instead (positions likewise: drawnPosition, src/canvas/placement.ts).
 */
function clamp(value: number, low: number, high: number, fallback: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, low), high) : fallback;
}
function drawnExtent(value: number | undefined): number | undefined {
  return value === undefined ? undefined : clamp(value, 1, LIMITS.nodeExtent, LIMITS.nodeExtent);
}

/**
 * React Flow nodes for the layout, keeping what React Flow owns on the screen (selection, measured size, and the
 * position of a node being dragged right now) from the previous ones.
 */
export function toFlowNodes(
  nodes: CanvasNode[],
  states: Record<string, NodeRuntimeState>,
  highlights: Record<string, { label: string }>,
  editable: boolean,
  previous: FlowNode[],
): FlowNode[] {
  const before = new Map(previous.map((node) => [node.id, node]));
  return nodes.map((node) => {
    const old = before.get(node.id);
    const dragging = old?.dragging === true;
    const position = drawnPosition(node.position);
    const width = drawnExtent(node.width);
    const height = drawnExtent(node.height);
    // Unchanged: the same object, so its memoized card does not render again (a 1,000-node canvas redraws one card
    // per change). A position or size that differs from the layout (a refused drag or resize) is put back.
    if (
      old &&
      old.data.node === node &&
      old.data.state === states[node.id] &&
      old.data.highlight === highlights[node.id]?.label &&
      old.draggable === (editable && node.draggable !== false) &&
      (dragging || (old.position.x === position.x && old.position.y === position.y)) &&
      old.width === width &&
      old.height === height
    ) {
      return old;
    }
    return {
      id: node.id,
      // A type this page does not know (a newer server) still gets a card.
      type: node.type in NODE_CARDS ? node.type : 'unknown',
      position: dragging ? old.position : position,
      data: { node, state: states[node.id], highlight: highlights[node.id]?.label },
      ...(node.parentId !== undefined ? { parentId: node.parentId } : {}),
      ...(node.extent === 'parent' ? { extent: 'parent' as const } : {}),
      ...(width !== undefined ? { width } : {}),
      ...(height !== undefined ? { height } : {}),
      ...(node.style
        ? {
            style: {
              ...node.style,
              ...(node.style.width !== undefined ? { width: drawnExtent(node.style.width) } : {}),
              ...(node.style.height !== undefined ? { height: drawnExtent(node.style.height) } : {}),
            },
          }
        : {}),
      ...(node.hidden !== undefined ? { hidden: node.hidden } : {}),
      ...(node.zIndex !== undefined ? { zIndex: node.zIndex } : {}),
      ...(node.expandParent !== undefined ? { expandParent: node.expandParent } : {}),
      selected: old?.selected ?? false,
      ...(old?.measured ? { measured: old.measured } : {}),
      ...(dragging ? { dragging: true } : {}),
      draggable: editable && node.draggable !== false,
      selectable: node.selectable !== false,
      connectable: editable && node.connectable !== false,
      deletable: editable && node.deletable !== false,
    };
  });
}

export function toFlowEdges(edges: CanvasEdge[], previous: Edge[], editable: boolean): Edge[] {
  const selected = new Set(previous.filter((edge) => edge.selected).map((edge) => edge.id));
  return edges.map((edge) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
    ...(edge.targetHandle ? { targetHandle: edge.targetHandle } : {}),
    ...(edge.label ? { label: edge.label } : {}),
    ...(edge.animated !== undefined ? { animated: edge.animated } : {}),
    ...(edge.hidden !== undefined ? { hidden: edge.hidden } : {}),
    selected: selected.has(edge.id),
    deletable: editable,
  }));
}
