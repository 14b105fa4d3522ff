import { RELATED_TASK_META_KEY, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * The JSON-RPC envelope of an everyday call, checked by hand before the SDK's zod schemas see it.
 *
 * Nearly every request an agent sends is `{jsonrpc, id, method, params}` with plain params (and on the 2026-07-28 era a
 * `_meta` envelope the schemas pass through unread); checking
 * that shape costs a few property reads, where the SDK's schemas rebuild the objects (about a tenth of the server's
 * CPU for a cached get_canvas at 50 nodes, docs/performance.md). Each check here accepts only what the schema it
 * stands in front of accepts, and answers null for anything else, which then goes to the schema: so the schema stays
 * the one judge of every unusual message, and nothing it refuses is ever let through.
 */

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** A JSON object as JSON.parse makes it (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * A `_meta` that the SDK's RequestMetaSchema (a loose object) accepts without looking inside: a plain object naming
 * neither of the two members it checks (progressToken, the related task). A 2026-07-28 request's envelope is such a
 * `_meta`; its own members are checked by the era (src/mcp/modern-era.ts).
 */
function isUncheckedMeta(meta: unknown): boolean {
  return isPlainObject(meta) && !Object.hasOwn(meta, 'progressToken') && !Object.hasOwn(meta, RELATED_TASK_META_KEY);
}

/** Plain params: an object whose `_meta`, if any, the schemas would pass unread. */
function hasPlainParams(params: unknown): params is Record<string, unknown> {
  return isPlainObject(params) && (!Object.hasOwn(params, '_meta') || isUncheckedMeta(params._meta));
}

/** What `JSONRPCRequestSchema` (strict; id a string or a safe integer) accepts with plain params. */
export function plainRequest(message: unknown): JSONRPCRequest | null {
  if (!isPlainObject(message)) return null;
  for (const key of Object.keys(message)) if (!ENVELOPE_KEYS.has(key)) return null;
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0' || typeof method !== 'string') return null;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return null;
  if (params !== undefined && !hasPlainParams(params)) return null;
  return message as unknown as JSONRPCRequest;
}

/** What `CallToolRequestSchema` reads from a call with plain params: the tool's name and its arguments. */
export function plainToolCall(request: JSONRPCRequest): { name: string; arguments?: Record<string, unknown> } | null {
  if (request.method !== 'tools/call') return null;
  const params: unknown = request.params;
  if (!hasPlainParams(params) || Object.hasOwn(params, 'task')) return null;
  const { name, arguments: args } = params;
  if (typeof name !== 'string') return null;
  if (args === undefined) return { name };
  return isPlainObject(args) ? { name, arguments: args } : null;
}

/** Client capabilities as most clients of the 2026-07-28 era send them: `{}`, which ClientCapabilitiesSchema accepts. */
export function isNoCapabilities(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

/** Client info as `{name, version}` strings and nothing else, which ImplementationSchema accepts. */
export function isBareImplementation(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (key !== 'name' && key !== 'version') return false;
  return typeof value.name === 'string' && typeof value.version === 'string';
}
