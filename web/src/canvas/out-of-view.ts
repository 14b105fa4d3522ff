/**
 * Where a card lies against what the person sees (web/src/canvas/AgentsOutOfView.tsx): in view, or off to one side,
 * and then the point on the pane's edge that points at it. Plain arithmetic on boxes in the pane's pixels, without
 * the page, so it is tested on its own.
 */

export type Box = { x: number; y: number; width: number; height: number };
export type Size = { width: number; height: number };

/** How far from the pane's edge a pointer sits, in pixels. */
export const EDGE_MARGIN = 16;

/**
 * A card is in view when its centre is in the pane, and not under the mini-map, which floats over the pane's bottom
 * right corner and hides what is drawn there.
 */
export function inView(card: Box, pane: Size, miniMap: Box | null): boolean {
  const x = card.x + card.width / 2;
  const y = card.y + card.height / 2;
  if (x < 0 || y < 0 || x > pane.width || y > pane.height) return false;
  if (miniMap && x >= miniMap.x && x <= miniMap.x + miniMap.width && y >= miniMap.y && y <= miniMap.y + miniMap.height)
    return false;
  return true;
}

/**
 * Where the pointer to a card out of view goes: its centre moved onto the pane's edge (less a margin), and the angle
 * from there to the card (0 is to the right, in degrees, clockwise as the screen's y grows down). A card under the
 * mini-map is pointed at from just above it. Null when the card is in view.
 */
export function edgePointer(
  card: Box,
  pane: Size,
  miniMap: Box | null,
): { x: number; y: number; angle: number } | null {
  if (inView(card, pane, miniMap)) return null;
  const centre = { x: card.x + card.width / 2, y: card.y + card.height / 2 };
  const clamp = (value: number, high: number) =>
    Math.min(Math.max(value, EDGE_MARGIN), Math.max(EDGE_MARGIN, high - EDGE_MARGIN));
  let x = clamp(centre.x, pane.width);
  let y = clamp(centre.y, pane.height);
  if (miniMap && x >= miniMap.x && y >= miniMap.y) {
    // The edge point itself would be under the mini-map: point from just above it, or from its left when the card is
    // further to the side than down.
    const fromAbove = centre.y - miniMap.y <= centre.x - miniMap.x;
    if (fromAbove) y = Math.max(EDGE_MARGIN, miniMap.y - EDGE_MARGIN);
    else x = Math.max(EDGE_MARGIN, miniMap.x - EDGE_MARGIN);
  }
  const angle = (Math.atan2(centre.y - y, centre.x - x) * 180) / Math.PI;
  return { x, y, angle: Number.isFinite(angle) ? angle : 0 };
}
