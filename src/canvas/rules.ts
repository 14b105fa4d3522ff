import type { CanvasNode } from '../contract/index.js';

/**
 * Canvas rules that are ours to decide (docs/api.md, "Deleting a parent").
 *
 * Deleting a node that other nodes name as parentId keeps the children: each moves to the deleted node's own
 * parent (or to the canvas root), and its position is rebased so it stays exactly where it was drawn. Deleting
 * the children too would delete more than the one node the caller named; refusing would make a group impossible
 * to remove through the published tools, which cannot re-parent.
 */
export function reparentChild(child: CanvasNode, removedParent: CanvasNode): CanvasNode {
  const position = {
    x: child.position.x + removedParent.position.x,
    y: child.position.y + removedParent.position.y,
  };
  const { parentId: _removed, extent, ...rest } = child;
  if (removedParent.parentId !== undefined) {
    return { ...rest, ...(extent ? { extent } : {}), position, parentId: removedParent.parentId } as CanvasNode;
  }
  // At the canvas root there is no parent to stay inside.
  return { ...rest, position } as CanvasNode;
}
