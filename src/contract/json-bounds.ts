import { LIMITS } from './limits.js';
import type { FieldIssue } from './errors.js';

/**
 * Bounds every JSON value a request carries must keep, whatever its schema (docs/contract.md, "Limits"): nesting at
 * most LIMITS.jsonDepth deep, and no "__proto__" key anywhere (JavaScript object handling would silently drop or
 * reinterpret it). Checked once at the edge, before the schema, so a hostile body costs one linear walk.
 */
export function jsonBoundsIssue(value: unknown): FieldIssue | null {
  // An explicit stack: a recursive walk would itself overflow on the bodies this is meant to refuse.
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.value === null || typeof current.value !== 'object') continue;
    if (current.depth >= LIMITS.jsonDepth) {
      return { path: current.path || '(root)', message: `is nested more than ${LIMITS.jsonDepth} levels deep` };
    }
    if (Array.isArray(current.value)) {
      for (let index = 0; index < current.value.length; index += 1) {
        stack.push({ value: current.value[index], depth: current.depth + 1, path: current.path ? `${current.path}.${index}` : String(index) });
      }
      continue;
    }
    for (const key of Object.keys(current.value)) {
      const path = current.path ? `${current.path}.${key}` : key;
      if (key === '__proto__') return { path, message: '"__proto__" is a reserved key and cannot be sent' };
      stack.push({ value: (current.value as Record<string, unknown>)[key], depth: current.depth + 1, path });
    }
  }
  return null;
}
