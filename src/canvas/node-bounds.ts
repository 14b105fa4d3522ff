import { LIMITS } from '../contract/index.js';

/**
 * Nodes written before the contract bounded positions and sizes (docs/contract.md, "Limits") may lie at 1e20 or be
 * 1e308 wide. Such a node is brought within the bounds where it is read back from storage (the data migration of 006, a
 * revert to an old revision): at the nearest edge, so it stays where it was drawn as far as it can.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function clampCoordinate(value: unknown): unknown {
  if (typeof value !== 'number') return value;
  if (!Number.isFinite(value)) return 0;
  return Math.min(Math.max(value, -LIMITS.coordinate), LIMITS.coordinate);
}

function clampExtent(value: unknown): unknown {
  if (typeof value !== 'number' || value <= 0) return value;
  return Math.min(value, LIMITS.nodeExtent);
}

/** The node's JSON text within the bounds, or null when it already is (or is not a node at all). */
export function nodeWithinBounds(body: string): string | null {
  const node: unknown = JSON.parse(body);
  if (!isObject(node)) return null;
  const next: Json = { ...node };
  if (isObject(node.position))
    next.position = { ...node.position, x: clampCoordinate(node.position.x), y: clampCoordinate(node.position.y) };
  if ('width' in node) next.width = clampExtent(node.width);
  if ('height' in node) next.height = clampExtent(node.height);
  if (isObject(node.style)) {
    next.style = {
      ...node.style,
      ...('width' in node.style ? { width: clampExtent(node.style.width) } : {}),
      ...('height' in node.style ? { height: clampExtent(node.style.height) } : {}),
    };
  }
  const text = JSON.stringify(next);
  return text === JSON.stringify(node) ? null : text;
}
