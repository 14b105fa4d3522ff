import { jsonBoundsIssue } from '../contract/index.js';
import { invalidArguments, invalidArgumentsOf, type CanvasError } from '../shared/errors.js';
import { bodySchema, toolSchemaName } from './body-schemas.js';

/**
 * The expensive part of reading a request body, as one pure function a worker thread can run: JSON parsing, the
 * JSON bounds and the contract schema. It answers only a verdict (and the caller's project, so rights can be checked
 * before an invalid body is reported); the caller parses a valid body again, which for a valid body is cheap.
 */

export type BodyTarget =
  /** A REST body, validated with the named schema. */
  | { kind: 'rest'; schema: string }
  /** A JSON-RPC message: a tools/call has its arguments validated with the tool's input schema. */
  | { kind: 'mcp' };

export interface BodyFault {
  code: CanvasError['code'];
  message: string;
  details: Record<string, unknown>;
}

export type BodyVerdict =
  | { kind: 'valid' }
  | { kind: 'not_json' }
  /** Valid JSON, invalid for the schema: for a tools/call, `id` and `tool` are the request's. */
  | { kind: 'invalid'; fault: BodyFault; projectId: string | null; id?: string | number | null; tool?: string };

function fault(error: CanvasError): BodyFault {
  return { code: error.code, message: error.message, details: error.details };
}

function projectIdOf(value: unknown): string | null {
  const projectId = value !== null && typeof value === 'object' ? (value as { project_id?: unknown }).project_id : undefined;
  return typeof projectId === 'string' ? projectId : null;
}

function checkValue(value: unknown, schemaName: string): BodyFault | null {
  const bounds = jsonBoundsIssue(value);
  if (bounds) return fault(invalidArgumentsOf([bounds]));
  const schema = bodySchema(schemaName);
  if (!schema) return null;
  const result = schema.safeParse(value);
  return result.success ? null : fault(invalidArguments(result.error, value));
}

export function checkBody(text: string, target: BodyTarget): BodyVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'not_json' };
  }
  if (target.kind === 'rest') {
    const problem = checkValue(value, target.schema);
    return problem ? { kind: 'invalid', fault: problem, projectId: null } : { kind: 'valid' };
  }
  const message = value as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
  // Only a request (it has an id) is answered with a tool error; anything else goes the usual way.
  if (message === null || typeof message !== 'object' || message.method !== 'tools/call' || !('id' in message)) return { kind: 'valid' };
  const name = message.params?.name;
  if (typeof name !== 'string' || !bodySchema(toolSchemaName(name))) return { kind: 'valid' };
  const args = message.params?.arguments ?? {};
  const problem = checkValue(args, toolSchemaName(name));
  if (!problem) return { kind: 'valid' };
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  return { kind: 'invalid', fault: problem, projectId: projectIdOf(args), id, tool: name };
}
