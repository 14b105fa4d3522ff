import { z } from 'zod';

/**
 * The closed list of error codes, each with its HTTP status and whether retrying can help. The spec leaves codes
 * and the error body shape "not shown"; the decisions are in docs/contract.md.
 *
 * retryable means "the same request may succeed later without changes". revision_conflict is retryable only
 * after a fresh read (re-read, merge, resubmit with the new base_revision).
 */
export const ERROR_CODES = {
  invalid_arguments: { status: 400, retryable: false },
  contract_error: { status: 400, retryable: false },
  unauthenticated: { status: 401, retryable: false },
  budget_exceeded: { status: 402, retryable: false },
  forbidden: { status: 403, retryable: false },
  edit_not_authorized: { status: 403, retryable: false },
  canvas_locked: { status: 403, retryable: false },
  not_found: { status: 404, retryable: false },
  method_not_allowed: { status: 405, retryable: false },
  revision_conflict: { status: 409, retryable: true },
  already_exists: { status: 409, retryable: false },
  conversation_busy: { status: 409, retryable: true },
  idempotency_mismatch: { status: 422, retryable: false },
  not_runnable: { status: 422, retryable: false },
  limit_exceeded: { status: 422, retryable: false },
  payload_too_large: { status: 413, retryable: false },
  unsupported_media_type: { status: 415, retryable: false },
  rate_limited: { status: 429, retryable: true },
  internal: { status: 500, retryable: true },
  unavailable: { status: 503, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];
export const ErrorCodeSchema = z.enum(ERROR_CODE_NAMES as [ErrorCode, ...ErrorCode[]]);

export const ErrorDetails = z.record(z.string(), z.unknown());

/** The one error body of the backend's HTTP API. */
export const ErrorBody = z.looseObject({
  error: z.looseObject({
    code: ErrorCodeSchema,
    message: z.string(),
    details: ErrorDetails.optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** structuredContent of a tool result with isError: true. */
export const ToolErrorResult = z
  .strictObject({
    error: z.strictObject({
      code: ErrorCodeSchema,
      message: z.string(),
      retryable: z.boolean(),
      details: ErrorDetails,
    }),
  })
  .meta({ id: 'ToolError' });
export type ToolErrorResult = z.infer<typeof ToolErrorResult>;

/** One offending field of an invalid request: the dotted path and the reason. */
export const FieldIssue = z.strictObject({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;
