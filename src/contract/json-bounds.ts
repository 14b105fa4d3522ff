import { LIMITS } from './limits.js';
import type { FieldIssue } from './errors.js';

/**
 * Bounds every JSON value a request carries must keep, whatever its schema (docs/contract.md, "Limits"): nesting at
 * most LIMITS.jsonDepth deep, and no "__proto__" key anywhere (JavaScript object handling would silently drop or
 * reinterpret it). Checked once at the edge, before the schema, so a hostile body costs one linear walk.
 */

interface Frame {
  value: object;
  depth: number;
  parent: Frame | null;
  key: string | number | null;
}

/** The dotted path of a frame, built only when there is something to report. */
function pathOf(frame: Frame, last?: string): string {
  const segments: Array<string | number> = last === undefined ? [] : [last];
  for (let current: Frame | null = frame; current && current.key !== null; current = current.parent)
    segments.push(current.key);
  return segments.length === 0 ? '(root)' : segments.reverse().join('.');
}

export function jsonBoundsIssue(value: unknown): FieldIssue | null {
  if (value === null || typeof value !== 'object') return null;
  // An explicit stack: a recursive walk would itself overflow on the bodies this is meant to refuse.
  const stack: Frame[] = [{ value, depth: 0, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth >= LIMITS.jsonDepth) {
      return { path: pathOf(frame), message: `is nested more than ${LIMITS.jsonDepth} levels deep` };
    }
    if (Array.isArray(frame.value)) {
      const items = frame.value as unknown[];
      for (let index = 0; index < items.length; index += 1) {
        const item = items[index];
        if (item !== null && typeof item === 'object')
          stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: index });
      }
      continue;
    }
    const record = frame.value as Record<string, unknown>;
    for (const key in record) {
      if (key === '__proto__')
        return { path: pathOf(frame, key), message: '"__proto__" is a reserved key and cannot be sent' };
      const item = record[key];
      if (item !== null && typeof item === 'object')
        stack.push({ value: item, depth: frame.depth + 1, parent: frame, key });
    }
  }
  return null;
}
