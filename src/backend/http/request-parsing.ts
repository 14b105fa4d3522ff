import type { z } from 'zod';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import { decodeUtf8, jsonContentTypeProblem } from '../../shared/request-body.js';
import type { BackendContext } from './http-env.js';

/** Parses path parameters with contract schemas: a bad id is refused before any storage access. */
export function pathParams<S extends Record<string, z.ZodType>>(
  c: BackendContext,
  schemas: S,
): { [K in keyof S]: z.output<S[K]> } {
  const entries = Object.entries(schemas).map(([name, schema]) => [name, parseOrThrow(schema, c.req.param(name), [name])]);
  return Object.fromEntries(entries) as { [K in keyof S]: z.output<S[K]> };
}

/** Reads a JSON body (application/json in UTF-8 only) and parses it with a contract schema. */
export async function jsonBody<S extends z.ZodType>(c: BackendContext, schema: S): Promise<z.output<S>> {
  const contentTypeProblem = jsonContentTypeProblem(c.req.header('content-type'));
  if (contentTypeProblem) throw new CanvasError('unsupported_media_type', contentTypeProblem);
  const text = decodeUtf8(new Uint8Array(await c.req.arrayBuffer()));
  if (text === null) {
    throw new CanvasError('invalid_arguments', 'The request body is not valid UTF-8.', {
      issues: [{ path: '(root)', message: 'not valid UTF-8' }],
    });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CanvasError('invalid_arguments', 'The request body is not valid JSON.', {
      issues: [{ path: '(root)', message: 'not valid JSON' }],
    });
  }
  return parseOrThrow(schema, body);
}
