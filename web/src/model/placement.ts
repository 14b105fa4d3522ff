import type { CanvasNode } from '../../../src/contract/index.js';
import { CARD, freeSpotNear, type Box, type MeasuredSizes } from '../../../src/canvas/placement.js';

export { drawnBoxes, freeSpotNear, NEW_CARD, type Box, type MeasuredSizes } from '../../../src/canvas/placement.js';

/**
 * The page's side of placement (src/canvas/placement.ts holds the rules it shares with the server): the sizes React
 * Flow measured, and a pasted block moved to a free spot.
 */

/** The sizes React Flow measured for the cards on screen, for drawnBoxes. */
export function measuredSizes(
  flowNodes: ReadonlyArray<{ id: string; measured?: { width?: number; height?: number } }>,
): MeasuredSizes {
  return new Map(flowNodes.flatMap((node) => (node.measured ? [[node.id, node.measured] as const] : [])));
}

/**
 * Moves pasted cards that sit on the canvas itself (not inside a group) as one block to the free spot nearest to where
 * they would have landed, so a paste never covers what is there; their places relative to each other are kept.
 */
export function placeBlock(
  block: readonly CanvasNode[],
  boxes: readonly Box[],
  size: (node: CanvasNode) => { width: number; height: number } = (node) => ({
    width: node.width ?? node.style?.width ?? CARD.width,
    height: node.height ?? node.style?.height ?? CARD.height,
  }),
): CanvasNode[] {
  const roots = block.filter((node) => node.parentId === undefined);
  if (roots.length === 0) return [...block];
  const left = Math.min(...roots.map((node) => node.position.x));
  const top = Math.min(...roots.map((node) => node.position.y));
  const right = Math.max(...roots.map((node) => node.position.x + size(node).width));
  const bottom = Math.max(...roots.map((node) => node.position.y + size(node).height));
  const extent = { width: right - left, height: bottom - top };
  const spot = freeSpotNear(boxes, { x: left + extent.width / 2, y: top + extent.height / 2 }, extent);
  const shift = { x: spot.x - left, y: spot.y - top };
  return block.map((node) =>
    node.parentId === undefined
      ? { ...node, position: { x: node.position.x + shift.x, y: node.position.y + shift.y } }
      : node,
  );
}
