import { jsonBoundsIssue } from '../contract/index.js';
import { invalidArguments, invalidArgumentsOf, type CanvasError } from '../shared/errors.js';
import { bodySchema, toolSchemaName } from './body-schemas.js';
import { editedDataFault, editedDataOf, nodesToLookUp } from './edited-data.js';

/**
 * The expensive part of reading a request body, as one pure function a worker thread can run: JSON parsing, the
 * JSON bounds and the contract schema. It answers only a verdict (and the caller's project, so rights can be checked
 * before an invalid body is reported); the caller parses a valid body again, which for a valid body is cheap.
 */

export type BodyTarget =
  /**
   * A REST body, validated with the named schema. `editedNodeId` is the node a PATCH edits (from the path); the data
   * of edits of nodes the body itself creates is checked against their type too (src/validation/edited-data.ts).
   */
  | { kind: 'rest'; schema: string; editedNodeId?: string }
  /** Second pass over a REST body found valid: also the data its edits set, against the stored types of their nodes. */
  | { kind: 'rest-edits'; schema: string; editedNodeId?: string; nodeTypes: Record<string, string> }
  /** A JSON-RPC message: a tools/call has its arguments validated with the tool's input schema. */
  | { kind: 'mcp' };

export interface BodyFault {
  code: CanvasError['code'];
  message: string;
  details: Record<string, unknown>;
}

export type BodyVerdict =
  /**
   * `value`: a REST body as its schema parsed it, which the caller takes instead of parsing the body again (for a body
   * of many keys that costs as much as checking it). `lookUpNodeTypes`: nodes whose stored type the data of an edit
   * must be checked against, in a second pass.
   */
  | { kind: 'valid'; value?: unknown; lookUpNodeTypes?: string[] }
  | { kind: 'not_json' }
  /** Valid JSON, invalid for the schema: for a tools/call, `id` and `tool` are the request's. */
  | {
      kind: 'invalid';
      fault: BodyFault;
      projectId: string | null;
      id?: string | number | null;
      tool?: string;
      /** The request's `params._meta`, which names its protocol era (src/mcp/modern-era.ts). */
      meta?: unknown;
    };

function fault(error: CanvasError): BodyFault {
  return { code: error.code, message: error.message, details: error.details };
}

function projectIdOf(value: unknown): string | null {
  const projectId =
    value !== null && typeof value === 'object' ? (value as { project_id?: unknown }).project_id : undefined;
  return typeof projectId === 'string' ? projectId : null;
}

/** The value as the named schema parses it, or the fault that refuses it. */
function checkValue(value: unknown, schemaName: string): { fault: BodyFault } | { parsed: unknown } {
  const bounds = jsonBoundsIssue(value);
  if (bounds) return { fault: fault(invalidArgumentsOf([bounds])) };
  const schema = bodySchema(schemaName);
  if (!schema) return { parsed: value };
  const result = schema.safeParse(value);
  return result.success ? { parsed: result.data } : { fault: fault(invalidArguments(result.error, value)) };
}

function checkRestBody(value: unknown, target: Exclude<BodyTarget, { kind: 'mcp' }>): BodyVerdict {
  const checked = checkValue(value, target.schema);
  if ('fault' in checked) return { kind: 'invalid', fault: checked.fault, projectId: null };
  const edits = editedDataOf(value, target.schema, target.editedNodeId);
  const problem = editedDataFault(edits, target.kind === 'rest-edits' ? target.nodeTypes : {});
  if (problem) return { kind: 'invalid', fault: fault(problem), projectId: null };
  const lookUp = target.kind === 'rest' ? nodesToLookUp(edits) : [];
  // The parsed body is copied back once, by the pass that settles it: copying costs the event loop too.
  return lookUp.length > 0 ? { kind: 'valid', lookUpNodeTypes: lookUp } : { kind: 'valid', value: checked.parsed };
}

export function checkBody(text: string, target: BodyTarget): BodyVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'not_json' };
  }
  if (target.kind !== 'mcp') return checkRestBody(value, target);
  const message = value as {
    method?: unknown;
    id?: unknown;
    params?: { name?: unknown; arguments?: unknown; _meta?: unknown };
  } | null;
  // Only a request (it has an id) is answered with a tool error; anything else goes the usual way.
  if (message === null || typeof message !== 'object' || message.method !== 'tools/call' || !('id' in message))
    return { kind: 'valid' };
  const name = message.params?.name;
  if (typeof name !== 'string' || !bodySchema(toolSchemaName(name))) return { kind: 'valid' };
  const args = message.params?.arguments ?? {};
  const checked = checkValue(args, toolSchemaName(name));
  // The arguments as checked, so the event loop does not parse and check them again.
  if (!('fault' in checked)) return { kind: 'valid', value: checked.parsed };
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  return {
    kind: 'invalid',
    fault: checked.fault,
    projectId: projectIdOf(args),
    id,
    tool: name,
    meta: message.params?._meta,
  };
}
