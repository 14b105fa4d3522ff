import type { CanvasNode, FreeArea } from '../contract/index.js';
import { CARD, drawnBoxes, freeSpotNear, type Box } from './placement.js';

/**
 * Where an agent may put new nodes (docs/contract.md, "Free areas"): areas that cover no node as
 * the page draws it, one past the end of the canvas and one beside each board (the shots an agent adds to a board's
 * scene go there), found by the same spiral search the page uses for a person's new card.
 */

/** An area of room for a few cards, or a board's worth of frames. */
export const FREE_AREA = { width: 1200, height: 800 };
/** Beside this many boards at most (the first in canvas order). */
const MAX_BOARDS = 20;
const MARGIN = 80;

/** A board's card grows with its frames (3 columns unless it says; at most 24 frames drawn): its size as drawn. */
export function boardSize(node: CanvasNode): { width: number; height: number } | undefined {
  if (node.type !== 'storyboardNode') return undefined;
  const columns = Math.min(Math.max(node.data.columns ?? 3, 1), 6);
  const rows = Math.ceil(Math.min(Math.max(node.data.frames.length, 1), 24) / columns);
  return { width: 40 + columns * 260, height: 120 + rows * 200 };
}

export function freeAreas(nodes: readonly CanvasNode[]): FreeArea[] {
  const estimates = new Map(nodes.flatMap((node) => [[node.id, boardSize(node) ?? CARD] as const]));
  const boxes: Box[] = drawnBoxes(nodes, estimates);
  const area = (near: string, at: { x: number; y: number }): FreeArea => ({
    near,
    ...freeSpotNear(boxes, { x: at.x + FREE_AREA.width / 2, y: at.y + FREE_AREA.height / 2 }, FREE_AREA),
    ...FREE_AREA,
  });
  if (boxes.length === 0) return [{ near: 'canvas', x: 0, y: 0, ...FREE_AREA }];
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const top = Math.min(...boxes.map((box) => box.y));
  const areas = [area('canvas', { x: right + MARGIN, y: top })];
  nodes.forEach((node, index) => {
    if (node.type !== 'storyboardNode' || areas.length > MAX_BOARDS) return;
    const box = boxes[index]!;
    areas.push(area(node.id, { x: box.x + box.width + MARGIN, y: box.y }));
  });
  return areas;
}
