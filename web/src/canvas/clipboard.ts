import type { CanvasEdge, CanvasNode } from '../../../src/contract/index.js';
import type { Layout } from '../model/layout.js';
import { newNodeId } from '../model/palette.js';
import { newKey } from '../model/api.js';

/**
 * Copy and paste of nodes (with the edges between them) within the page: a paste is one batch, with new ids, placed
 * a little down and right of the originals; children keep their group when it is pasted with them.
 */

let clipboard: { nodes: CanvasNode[]; edges: CanvasEdge[] } | null = null;

export function copySelection(layout: Layout, selected: Set<string>): void {
  const nodes = layout.nodes.filter((node) => selected.has(node.id));
  const edges = layout.edges.filter((edge) => selected.has(edge.source) && selected.has(edge.target));
  clipboard = structuredClone({ nodes, edges });
  void navigator.clipboard?.writeText(JSON.stringify(clipboard)).catch(() => undefined);
}

export function pasteClipboard(layout: Layout): { nodes: CanvasNode[]; edges: CanvasEdge[] } | null {
  if (!clipboard || clipboard.nodes.length === 0) return null;
  const ids = new Map(clipboard.nodes.map((node) => [node.id, newNodeId(node.type)]));
  const existing = new Set(layout.nodes.map((node) => node.id));
  const nodes = clipboard.nodes.map((node) => {
    const copy = structuredClone(node) as CanvasNode & { parentId?: string; extent?: 'parent' };
    copy.id = ids.get(node.id)!;
    const parentCopied = node.parentId !== undefined && ids.has(node.parentId);
    if (parentCopied) copy.parentId = ids.get(node.parentId!)!;
    else {
      if (node.parentId !== undefined && !existing.has(node.parentId)) {
        delete copy.parentId;
        delete copy.extent;
      }
      copy.position = { x: node.position.x + 40, y: node.position.y + 40 };
    }
    return copy as CanvasNode;
  });
  const edges = clipboard.edges.map((edge) => ({
    ...structuredClone(edge),
    id: `${edge.id}-${newKey().slice(0, 4)}`,
    source: ids.get(edge.source)!,
    target: ids.get(edge.target)!,
  }));
  return { nodes, edges };
}
