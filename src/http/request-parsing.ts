import type { z } from 'zod';
import { CanvasError, parseOrThrow } from '../shared/errors.js';
import { yieldToIo } from '../shared/event-loop.js';
import { decodeUtf8, jsonContentTypeProblem } from '../shared/request-body.js';
import { bodySchemaName } from '../validation/body-schemas.js';
import type { BackendContext } from './http-env.js';

const NOT_UTF8 = () =>
  new CanvasError('invalid_arguments', 'The request body is not valid UTF-8.', {
    issues: [{ path: '(root)', message: 'not valid UTF-8' }],
  });
const NOT_JSON = () =>
  new CanvasError('invalid_arguments', 'The request body is not valid JSON.', {
    issues: [{ path: '(root)', message: 'not valid JSON' }],
  });

/** For a body that edits nodes: the node a PATCH edits, and where the types of edited nodes are read. */
export interface NodeEdits {
  nodeId?: string;
  typesOf(nodeIds: string[]): Promise<Record<string, string>>;
}

/**
 * Reads a JSON body (application/json in UTF-8 only) and parses it with a contract schema. A large body is checked
 * on a worker thread first (src/validation/body-check-pool.ts): an invalid one is refused without being parsed here, a
 * valid one is taken as the worker parsed it. With `edits`, the data a large body's edits set is checked there too,
 * against the types of the nodes they edit.
 */
export async function jsonBody<S extends z.ZodType>(
  c: BackendContext,
  schema: S,
  edits?: NodeEdits,
): Promise<z.output<S>> {
  const contentTypeProblem = jsonContentTypeProblem(c.req.header('content-type'));
  if (contentTypeProblem) throw new CanvasError('unsupported_media_type', contentTypeProblem);
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const schemaName = bodySchemaName(schema);
  if (schemaName) {
    const checks = c.get('bodyChecks');
    const editedNodeId = edits?.nodeId === undefined ? {} : { editedNodeId: edits.nodeId };
    let verdict = await checks.checkLarge(bytes, { kind: 'rest', schema: schemaName, ...editedNodeId });
    if (verdict?.kind === 'valid' && verdict.lookUpNodeTypes && edits) {
      const nodeTypes = await edits.typesOf(verdict.lookUpNodeTypes);
      verdict = await checks.checkLarge(bytes, { kind: 'rest-edits', schema: schemaName, ...editedNodeId, nodeTypes });
    }
    if (verdict?.kind === 'not_utf8') throw NOT_UTF8();
    if (verdict?.kind === 'not_json') throw NOT_JSON();
    if (verdict?.kind === 'invalid')
      throw new CanvasError(verdict.fault.code, verdict.fault.message, verdict.fault.details);
    if (verdict?.kind === 'valid' && verdict.value !== undefined) {
      // Copying a large value back took up to ~40 ms of this turn of the event loop: the write gets a turn of its own.
      await yieldToIo();
      // Parsed on the worker with this very schema: parsing it again here would cost as much as checking it did.
      return verdict.value as z.output<S>;
    }
  }
  const text = decodeUtf8(bytes);
  if (text === null) throw NOT_UTF8();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw NOT_JSON();
  }
  return parseOrThrow(schema, body);
}
