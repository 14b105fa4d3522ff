import type { z } from 'zod';
// The contract's own files, not its index (which builds every wire shape): the command line loads this class to start.
import { ERROR_CODES, type ErrorCode, type FieldIssue } from '../contract/errors.js';
import { jsonBoundsIssue } from '../contract/json-bounds.js';
import { LIMITS } from '../contract/limits.js';

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

/** Dotted path of a zod issue: `node.data.prompt`, `operations.150.node.type` or `(root)`. */
function issuePath(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): string {
  const full = [...prefix, ...path].filter((segment) => segment !== '');
  return full.length === 0 ? '(root)' : full.map(String).join('.');
}

const TEXT_NODE_HINT = 'a text node is type textAnnotationNode with data.content (the text) and data.displayName';

const MAX_LISTED_KEYS = 10;
const MAX_MESSAGE_LENGTH = 500;

function issueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const message = rawIssueMessage(issue, input);
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message;
}

function rawIssueMessage(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    // One issue may name thousands of keys: the answer lists a few, and how many there are.
    const listed = issue.keys
      .slice(0, MAX_LISTED_KEYS)
      .map((key) => JSON.stringify(key))
      .join(', ');
    const more = issue.keys.length > MAX_LISTED_KEYS ? ` and ${issue.keys.length - MAX_LISTED_KEYS} more` : '';
    return `Unrecognized key${issue.keys.length === 1 ? '' : 's'}: ${listed}${more}`;
  }
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
export function fieldIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): FieldIssue[] {
  return issues.map((issue) => ({ path: issuePath(issue.path, prefix), message: issueMessage(issue, input) }));
}

/**
 * invalid_arguments naming the offending fields: at most LIMITS.reportedIssues of them, with the total, so one
 * hostile call cannot make a huge answer.
 */
export function invalidArguments(error: z.ZodError, input: unknown, prefix: readonly PropertyKey[] = []): CanvasError {
  const total = error.issues.length;
  const issues = fieldIssues(error.issues.slice(0, LIMITS.reportedIssues), input, prefix);
  return invalidArgumentsOf(issues, total);
}

/** invalid_arguments from issues already found (the first few of `total`). */
export function invalidArgumentsOf(issues: FieldIssue[], total = issues.length): CanvasError {
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  const more = total > 3 ? ` (and ${total - 3} more)` : '';
  return new CanvasError('invalid_arguments', `Invalid arguments: ${summary}${more}`, {
    issues,
    ...(total > issues.length ? { issue_count: total, issues_truncated: true } : {}),
  });
}

/**
 * Parses untrusted input with a contract schema, or throws invalid_arguments naming the offending fields. The
 * input's JSON bounds (nesting depth, reserved keys) are checked first, in one linear walk.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const bounds = jsonBoundsIssue(input);
  if (bounds)
    throw invalidArgumentsOf([
      { path: issuePath(bounds.path === '(root)' ? [] : bounds.path.split('.'), prefix), message: bounds.message },
    ]);
  const result = schema.safeParse(input);
  if (!result.success) throw invalidArguments(result.error, input, prefix);
  return result.data;
}

/** Any thrown value as a CanvasError; unexpected faults become `internal` without leaking their message. */
export function toCanvasError(error: unknown): CanvasError {
  if (error instanceof CanvasError) return error;
  return new CanvasError('internal', 'Internal error; the request may be retried.');
}
