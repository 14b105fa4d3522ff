import { z } from 'zod';
import { codePointLength } from './text.js';

/**
 * Identifier rules of the spec (section "Identifier constraints").
 *
 * Every rule is written as a JSON-Schema-expressible check (a `u`-flag pattern, not a refinement), so the JSON
 * Schema published in tools/list accepts and refuses exactly what zod does. Lengths count Unicode code points:
 * that is what JSON Schema's minLength/maxLength count and what a `u`-flag regex quantifier counts (decision in
 * docs/contract.md). Every identifier must be well-formed Unicode: a lone UTF-16 surrogate is refused, because the two
 * stores would compare such strings differently (SQLite by UTF-8 bytes with the surrogate replaced, PostgreSQL not at
 * all), and two different ids could name one row.
 */

export const RESOURCE_ID_MAX_LENGTH = 255;
export const CANVAS_ID_MAX_LENGTH = 64;
export const CLIENT_SAVE_ID_MAX_LENGTH = 128;

// slash, backslash, question mark, hash, percent sign, control characters 0x00-0x20 (space included), 0x7f
const FORBIDDEN_CHARACTER_CLASS = String.raw`/\\?#%\u0000-\u0020\u007f`;
const FORBIDDEN_CHARACTER = new RegExp(`[${FORBIDDEN_CHARACTER_CLASS}]`, 'u');
// In a `u`-flag class, a surrogate range matches only unpaired surrogates: paired ones are one astral code point.
const LONE_SURROGATE_CLASS = String.raw`\ud800-\udfff`;
const LONE_SURROGATE = new RegExp(`[${LONE_SURROGATE_CLASS}]`, 'u');

const RESOURCE_ID_PATTERN = new RegExp(
  `^(?!\\.{1,2}$)[^${FORBIDDEN_CHARACTER_CLASS}${LONE_SURROGATE_CLASS}]{1,${RESOURCE_ID_MAX_LENGTH}}$`,
  'u',
);
const CANVAS_ID_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${CANVAS_ID_MAX_LENGTH}}$`, 'u');
// At least one non-whitespace character, 1..128 code points in all.
const CLIENT_SAVE_ID_PATTERN = new RegExp(
  `^(?=[^${LONE_SURROGATE_CLASS}]*\\S)[^${LONE_SURROGATE_CLASS}]{1,${CLIENT_SAVE_ID_MAX_LENGTH}}$`,
  'u',
);

const LONE_SURROGATE_MESSAGE = 'must be well-formed Unicode (it contains an unpaired UTF-16 surrogate)';

function describeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  if (code === 0x20) return 'a space (an id is one word: give a name with spaces as the title)';
  return code < 0x20 || code === 0x7f
    ? `control or space character U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    : `'${character}'`;
}

/** Says which identifier rule a value breaks, so a caller can fix it without reading the spec. */
export function describeResourceIdViolation(value: unknown): string {
  if (typeof value !== 'string') return 'must be a string';
  const length = codePointLength(value);
  if (length === 0) return 'must not be empty';
  if (length > RESOURCE_ID_MAX_LENGTH) {
    return `must be at most ${RESOURCE_ID_MAX_LENGTH} characters (got ${length})`;
  }
  if (value === '.' || value === '..') return `must not be exactly '${value}'`;
  if (LONE_SURROGATE.test(value)) return LONE_SURROGATE_MESSAGE;
  const forbidden = FORBIDDEN_CHARACTER.exec(value);
  if (forbidden) {
    return `must not contain ${describeCharacter(forbidden[0])} (forbidden: / \\ ? # % and characters 0x00-0x20, 0x7f)`;
  }
  return 'is not a valid identifier';
}

function describeCanvasIdViolation(value: unknown): string {
  if (typeof value !== 'string') return 'must be a string';
  const length = codePointLength(value);
  if (length === 0) return 'must not be empty';
  if (length > CANVAS_ID_MAX_LENGTH) return `must be at most ${CANVAS_ID_MAX_LENGTH} characters (got ${length})`;
  return 'may contain only ASCII letters, digits, underscore and hyphen';
}

function describeClientSaveIdViolation(value: unknown): string {
  if (typeof value !== 'string') return 'must be a string or null';
  const length = codePointLength(value);
  if (length === 0) return 'must not be empty (send null for no id)';
  if (length > CLIENT_SAVE_ID_MAX_LENGTH) {
    return `must be at most ${CLIENT_SAVE_ID_MAX_LENGTH} characters (got ${length})`;
  }
  if (LONE_SURROGATE.test(value)) return LONE_SURROGATE_MESSAGE;
  return 'must contain at least one non-whitespace character';
}

/** project_id, node_id, run_id, node.id and parentId all share this rule. */
export const ResourceId = z
  .string()
  .regex(RESOURCE_ID_PATTERN, { error: (issue) => describeResourceIdViolation(issue.input) })
  .meta({ minLength: 1, maxLength: RESOURCE_ID_MAX_LENGTH });

export const ProjectId = ResourceId.meta({ description: 'Project identifier.' });
export const NodeId = ResourceId.meta({ description: 'Node identifier, exactly as listed in layout.nodes[].id.' });
export const RunId = ResourceId.meta({
  description: 'Node run identifier. Never a chat run id (X-Agent-Run-Id) and never a skill run id.',
});

export const RunChainId = ResourceId.meta({ description: 'Downstream chain identifier ("Run from here"): chain_…' });

export const CanvasId = z
  .string()
  .regex(CANVAS_ID_PATTERN, { error: (issue) => describeCanvasIdViolation(issue.input) })
  .meta({
    minLength: 1,
    maxLength: CANVAS_ID_MAX_LENGTH,
    description: 'Canvas id: 1..64 ASCII letters, digits, _ or -.',
  });

export const BaseRevision = z
  .int({ error: 'must be an integer >= 0 (the layout.revision returned by get_canvas)' })
  .min(0, { error: 'must be an integer >= 0 (the layout.revision returned by get_canvas)' })
  .meta({ description: 'The layout.revision from your latest get_canvas read.' });

export const ClientSaveId = z
  .string({ error: (issue) => describeClientSaveIdViolation(issue.input) })
  .regex(CLIENT_SAVE_ID_PATTERN, { error: (issue) => describeClientSaveIdViolation(issue.input) })
  .meta({ minLength: 1, maxLength: CLIENT_SAVE_ID_MAX_LENGTH })
  .nullable()
  .default(null)
  .meta({
    description:
      'Optional id that only correlates the save receipt; an identical retry (same id and arguments) replays the receipt.',
  });

export type ResourceId = z.infer<typeof ResourceId>;
export type CanvasId = z.infer<typeof CanvasId>;

/** Which canvas, inside the server: a project and a canvas of it (the wire says project_id and canvas_id). */
export interface CanvasRef {
  projectId: string;
  canvasId: string;
}
