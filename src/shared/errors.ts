import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type FieldIssue } from '../contract/index.js';

/** The one error class: every expected failure is a CanvasError with a code from the closed list. */
export class CanvasError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'CanvasError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }
}

/** Dotted path of a zod issue: `node.data.prompt`, `node.position` or `(root)`. */
function issuePath(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): string {
  const full = [...prefix, ...path];
  if (full.length === 0) return '(root)';
  return full
    .map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`))
    .join('');
}

const TEXT_NODE_HINT = 'a text node is type textAnnotationNode with data.content (the text) and data.displayName';

function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator === 'type') {
    const value = readPath(input, issue.path);
    const hint = value === 'textNode' || value === 'text' ? ` (${TEXT_NODE_HINT})` : '';
    return `${issue.message}${hint}`;
  }
  return issue.message;
}

function readPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** Every offending field of a failed parse, with its path and the reason. */
export function fieldIssues(error: z.ZodError, input: unknown, prefix: readonly PropertyKey[] = []): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issuePath(issue.path, prefix), message: issueMessage(issue, input) }));
}

export function invalidArguments(error: z.ZodError, input: unknown, prefix: readonly PropertyKey[] = []): CanvasError {
  const issues = fieldIssues(error, input, prefix);
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return new CanvasError('invalid_arguments', `Invalid arguments: ${summary}${more}`, { issues });
}

/** Parses untrusted input with a contract schema, or throws invalid_arguments naming every offending field. */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidArguments(result.error, input, prefix);
  return result.data;
}

/** Any thrown value as a CanvasError; unexpected faults become `internal` without leaking their message. */
export function toCanvasError(error: unknown): CanvasError {
  if (error instanceof CanvasError) return error;
  return new CanvasError('internal', 'Internal error; the request may be retried.');
}
