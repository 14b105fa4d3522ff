import { getViewportForBounds, type ReactFlowInstance } from '@xyflow/react';
import type { CanvasNode } from '../../../src/contract/index.js';
import { LIMITS } from '../../../src/contract/limits.js';
import { drawnBoxes } from '../model/placement.js';
import { canvasPositions, CARD } from '../../../src/canvas/placement.js';
import type { FlowNode } from '../cards/card-data.js';
import { miniMapStrips, PADDING, paddingClearOf, type Bounds, type Size } from './fit-padding.js';

/**
 * Fits the whole canvas in view. React Flow's own fitView only counts nodes it has measured, and with
 * onlyRenderVisibleElements a node outside the view is never measured: the bounds here come from the layout (a
 * child's position is relative to its parent), with a card's usual size where the node gives none.
 */

/** Beyond any layout the contract allows, nested children included. */
const FAR = LIMITS.coordinate * 100;

export function layoutBounds(
  nodes: CanvasNode[],
  include: (node: CanvasNode) => boolean = () => true,
): { x: number; y: number; width: number; height: number } | null {
  if (!nodes.some(include)) return null;
  const place = canvasPositions(nodes);
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const node of nodes) {
    if (!include(node)) continue;
    const at = place(node);
    const width = node.width ?? node.style?.width ?? CARD.width;
    const height = node.height ?? node.style?.height ?? CARD.height;
    // A node whose bounds are not finite numbers within reach is left out: one such node must not make fit do nothing.
    if (![at.x, at.y, at.x + width, at.y + height].every((value) => Number.isFinite(value) && Math.abs(value) <= FAR))
      continue;
    left = Math.min(left, at.x);
    top = Math.min(top, at.y);
    right = Math.max(right, at.x + width);
    bottom = Math.max(bottom, at.y + height);
  }
  if (!Number.isFinite(left)) return null;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * Titles are readable at any zoom (they are sized by it), but below this one a card is a dot with a label: Fit then
 * shows the part of the canvas where most cards are, rather than the far corners.
 */
export const READABLE_ZOOM = 0.3;
/** The zoom range of every canvas view (the web canvas and the MCP App). */
export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 2;

/**
 * The part of the canvas where the most cards are, as large as fits the pane at the readable zoom: what people work
 * on, rather than the far corners a few stray cards stretch the whole canvas to.
 */
export function busiestRegion(boxes: readonly Bounds[], window: { width: number; height: number }): Bounds | null {
  let best: { count: number; bounds: Bounds } | null = null;
  for (const anchor of boxes) {
    const inside = boxes.filter(
      (box) =>
        box.x >= anchor.x &&
        box.y >= anchor.y - window.height / 2 &&
        box.x + box.width <= anchor.x + window.width &&
        box.y + box.height <= anchor.y + window.height / 2,
    );
    if (inside.length === 0 || (best && inside.length <= best.count)) continue;
    const left = Math.min(...inside.map((box) => box.x));
    const top = Math.min(...inside.map((box) => box.y));
    const right = Math.max(...inside.map((box) => box.x + box.width));
    const bottom = Math.max(...inside.map((box) => box.y + box.height));
    best = { count: inside.length, bounds: { x: left, y: top, width: right - left, height: bottom - top } };
  }
  return best?.bounds ?? null;
}

/** The mini-map's corner of the pane: from its left edge to the pane's right, from its top to the pane's bottom. */
function miniMapCorner(pane: DOMRect): Size | null {
  const miniMap = document.querySelector('.react-flow__minimap')?.getBoundingClientRect();
  if (!miniMap || miniMap.width === 0) return null;
  return { width: Math.max(0, pane.right - miniMap.left), height: Math.max(0, pane.bottom - miniMap.top) };
}

export function fitCanvas(flow: ReactFlowInstance<FlowNode>, nodes: CanvasNode[], duration = 0): void {
  const bounds = layoutBounds(nodes);
  if (!bounds) return;
  const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
  if (!pane) {
    void flow.fitBounds(bounds, { padding: PADDING, duration });
    return;
  }
  const corner = miniMapCorner(pane);
  const fitTo = (target: Bounds) =>
    void flow.setViewport(
      getViewportForBounds(target, pane.width, pane.height, MIN_ZOOM, MAX_ZOOM, paddingClearOf(target, pane, corner)),
      { duration },
    );
  // The pane less the mini-map's strip (of those that may be kept free, the one that leaves the larger area).
  const strips = miniMapStrips(pane, corner);
  const free =
    strips.length === 0
      ? { width: pane.width, height: pane.height }
      : strips
          .map((strip) => ({ width: pane.width - strip.right, height: pane.height - strip.bottom }))
          .reduce((best, left) => (left.width * left.height > best.width * best.height ? left : best));
  const zoomToFit = Math.min(
    free.width / (bounds.width * (1 + 2 * PADDING)),
    free.height / (bounds.height * (1 + 2 * PADDING)),
  );
  if (zoomToFit < READABLE_ZOOM) {
    // Too large to read whole: the busiest part, at a zoom where its cards are readable.
    const window = {
      width: free.width / READABLE_ZOOM / (1 + 2 * PADDING),
      height: free.height / READABLE_ZOOM / (1 + 2 * PADDING),
    };
    const region = busiestRegion(drawnBoxes(nodes.filter((node) => node.parentId === undefined)), window);
    if (region) {
      fitTo(region);
      return;
    }
  }
  fitTo(bounds);
}
