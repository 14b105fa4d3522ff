import { CONTINUITY_FIELDS } from '../contract/index.js';

/**
 * "Continue from previous" (docs/storyboards.md, "Continuity"): the shot with the continuity fields of the shot before
 * it (cast, location, lens: CONTINUITY_FIELDS), exactly: a field the shot before has is copied, one it lacks is removed, so the two
 * match. Everything else stays the shot's own. One rule for the server's route and the shot list's button.
 */
export function continuedShot<S extends Record<string, unknown>>(
  shot: S,
  previous: Readonly<Record<string, unknown>>,
): S {
  const next: Record<string, unknown> = { ...shot };
  for (const field of CONTINUITY_FIELDS) {
    const value = previous[field];
    if (value === undefined) delete next[field];
    else next[field] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return next as S;
}
