/**
 * Where Fit leaves room (web/src/canvas/fit.ts): the margin around what it fits, and the strip it keeps free for the
 * mini-map. Plain arithmetic on sizes, without the page, so it is tested on its own.
 */

/** The margin Fit leaves around what it fits, as a fraction (React Flow's `padding`). */
export const PADDING = 0.08;

export type Bounds = { x: number; y: number; width: number; height: number };
export type Size = { width: number; height: number };
/** What Fit keeps free of cards for the mini-map: a strip on the pane's right, or at its bottom. */
type Strip = { right: number; bottom: number };
const NO_STRIP: Strip = { right: 0, bottom: 0 };

/**
 * The strips that may be kept free for the mini-map: its width on the right, its height at the bottom, each only where
 * it leaves at least half the pane (in a small window the cards come first).
 */
export function miniMapStrips(pane: Size, miniMap: Size | null): Strip[] {
  if (!miniMap) return [];
  return [
    ...(miniMap.width * 2 <= pane.width ? [{ right: miniMap.width, bottom: 0 }] : []),
    ...(miniMap.height * 2 <= pane.height ? [{ right: 0, bottom: miniMap.height }] : []),
  ];
}

/** Pixels, as React Flow takes a padding of each side. */
type Px = `${number}px`;
type Padding = { top: Px; right: Px; bottom: Px; left: Px };

/**
 * The padding that fits `bounds` in the pane clear of the mini-map, which floats over the pane's bottom right corner:
 * the usual margin on every side, and the mini-map's width kept free on the right or its height at the bottom,
 * whichever leaves the larger zoom. A card after Fit is then never under it.
 */
export function paddingClearOf(bounds: Bounds, pane: Size, miniMap: Size | null): Padding {
  const marginX = Math.floor((pane.width - pane.width / (1 + PADDING)) * 0.5);
  const marginY = Math.floor((pane.height - pane.height / (1 + PADDING)) * 0.5);
  const zoomWith = ({ right, bottom }: Strip) =>
    Math.min(
      (pane.width - 2 * marginX - right) / Math.max(bounds.width, 1),
      (pane.height - 2 * marginY - bottom) / Math.max(bounds.height, 1),
    );
  const strips = miniMapStrips(pane, miniMap);
  const { right, bottom } =
    strips.length === 0 ? NO_STRIP : strips.reduce((best, strip) => (zoomWith(strip) > zoomWith(best) ? strip : best));
  return {
    top: `${marginY}px`,
    right: `${marginX + right}px`,
    bottom: `${marginY + bottom}px`,
    left: `${marginX}px`,
  };
}
