import { LIMITS, type CanvasNode } from '../contract/index.js';

/**
 * Where a new card goes (docs/ui.md, "Where new cards go"): the free spot nearest to where the person or
 * agent is working, searched outward in a spiral of card-sized steps, against every card as it is drawn (children of
 * groups at their place on the canvas, groups with all they hold). The page (palette, paste, the chat's free spot)
 * and the server (get_canvas's free areas) ask these same functions.
 */

function clamp(value: number, low: number, high: number, fallback: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, low), high) : fallback;
}

/**
 * Where a node is drawn. The contract bounds positions (LIMITS.coordinate), but a node stored before those bounds may
 * lie at 1e20: it is drawn at the edge of the bounds instead, so one such node cannot leave the whole canvas blank.
 */
export function drawnPosition(position: { x: number; y: number }): { x: number; y: number } {
  return {
    x: clamp(position.x, -LIMITS.coordinate, LIMITS.coordinate, 0),
    y: clamp(position.y, -LIMITS.coordinate, LIMITS.coordinate, 0),
  };
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const NEW_CARD = { width: 300, height: 220 };
const GAP = 40;
/** A card's size when its node says none. */
export const CARD = { width: 280, height: 200 };

/** A card's size as the page drew it (React Flow's `measured`), when it is on screen. */
export type MeasuredSizes = ReadonlyMap<string, { width?: number; height?: number }>;

/**
 * Every node's box where it is drawn on the canvas (a child's position is relative to its parent). A card drawn
 * larger than its stored size (its results grew it) counts at the size it shows.
 */
/**
 * Where each node is on the canvas itself: a child's position is relative to its parent's (nesting followed at most
 * 64 deep, so a cycle stored before parents were checked cannot loop). Answers a lookup, each node placed once.
 */
export function canvasPositions(nodes: readonly CanvasNode[]): (node: CanvasNode) => { x: number; y: number } {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const absolute = new Map<string, { x: number; y: number }>();
  const place = (node: CanvasNode, depth = 0): { x: number; y: number } => {
    const known = absolute.get(node.id);
    if (known) return known;
    const parent = node.parentId !== undefined && depth < 64 ? byId.get(node.parentId) : undefined;
    const origin = parent ? place(parent, depth + 1) : { x: 0, y: 0 };
    const own = drawnPosition(node.position);
    const at = { x: origin.x + own.x, y: origin.y + own.y };
    absolute.set(node.id, at);
    return at;
  };
  return (node) => place(node);
}

export function drawnBoxes(nodes: readonly CanvasNode[], measured: MeasuredSizes = new Map()): Box[] {
  const place = canvasPositions(nodes);
  return nodes.map((node) => {
    const drawn = measured.get(node.id);
    return {
      ...place(node),
      width: Math.max(node.width ?? node.style?.width ?? CARD.width, drawn?.width ?? 0),
      height: Math.max(node.height ?? node.style?.height ?? CARD.height, drawn?.height ?? 0),
    };
  });
}

const overlaps = (box: Box, boxes: readonly Box[]) =>
  boxes.some(
    (other) =>
      box.x < other.x + other.width + GAP &&
      box.x + box.width + GAP > other.x &&
      box.y < other.y + other.height + GAP &&
      box.y + box.height + GAP > other.y,
  );

/** The top-left of the free spot for a card of `size` nearest to `near` (a point the card is centred on). */
export function freeSpotNear(
  boxes: readonly Box[],
  near: { x: number; y: number },
  size: { width: number; height: number } = NEW_CARD,
): { x: number; y: number } {
  const start = { x: Math.round(near.x - size.width / 2), y: Math.round(near.y - size.height / 2) };
  const step = { x: size.width + GAP, y: size.height + GAP };
  for (let ring = 0; ring < 60; ring += 1) {
    // The ring of cells at this distance, nearest first.
    const cells: Array<{ x: number; y: number; distance: number }> = [];
    for (let dx = -ring; dx <= ring; dx += 1) {
      for (let dy = -ring; dy <= ring; dy += 1) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        cells.push({ x: start.x + dx * step.x, y: start.y + dy * step.y, distance: Math.hypot(dx, dy) });
      }
    }
    cells.sort((a, b) => a.distance - b.distance);
    for (const cell of cells) if (!overlaps({ x: cell.x, y: cell.y, ...size }, boxes)) return { x: cell.x, y: cell.y };
  }
  return start;
}
