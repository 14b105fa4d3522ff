import { ClientCapabilitiesSchema, ImplementationSchema, LoggingLevelSchema } from '@modelcontextprotocol/sdk/types.js';
import { BOTH_ERAS_METHODS, SERVER_INFO, type EraFrame } from './era.js';
import { isBareImplementation, isNoCapabilities } from './plain-envelope.js';
import { ALL_PROTOCOL_VERSIONS, RPC_ERROR, isModernProtocolVersion, rpcErrorBody, type JsonRpcId } from './protocol.js';

/**
 * The 2026-07-28 framing (docs/architecture.md, "MCP transport"): which requests belong to the modern era, the
 * checks its Streamable HTTP binding requires before dispatch, and the fields it adds to every result. Written from
 * the revision's own text (basic/index.mdx, basic/versioning.mdx, basic/transports/streamable-http.mdx); the
 * order of the checks follows the official SDK's validation ladder, so both answer a faulty request alike.
 */

export const META_KEY = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The methods the modern era defines that this server serves (no initialize, no ping: changelog, major 2 and 5). */
const MODERN_METHODS = new Set<string>(['server/discover', ...BOTH_ERAS_METHODS]);

/** Methods whose `params.name` or `params.uri` the client mirrors into `Mcp-Name` (streamable-http.mdx, "Standard Request Headers"). */
const NAMED_METHODS: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** Tool lists change only when the server restarts with other flags, and are the same for every caller. */
const CACHE_HINTS = { ttlMs: 300_000, cacheScope: 'public' } as const;

/** `_meta` of every modern result, open for the result's own members: the server's identity first. */
const META_OPENING = `"resultType":"complete","_meta":{${JSON.stringify(META_KEY.serverInfo)}:${JSON.stringify(SERVER_INFO)}`;

export const MODERN_ERA: EraFrame = {
  name: 'modern',
  protocolVersion: '2026-07-28',
  hasMethod: (method) => MODERN_METHODS.has(method),
  // "The result MUST include a resultType field" (basic/index.mdx); servers SHOULD identify themselves in each result.
  resultHead: `"resultType":"complete","_meta":${JSON.stringify({ [META_KEY.serverInfo]: SERVER_INFO })},`,
  // The server's own member is written once; a result's members follow it (on every get_canvas call).
  resultHeadWith: (meta) => {
    const members = JSON.stringify(meta);
    return members === '{}' ? `${META_OPENING}},` : `${META_OPENING},${members.slice(1)},`;
  },
  // "Servers MUST include caching hints" on tools/list and server/discover (server/utilities/caching.mdx).
  cacheHead: `"ttlMs":${CACHE_HINTS.ttlMs},"cacheScope":"${CACHE_HINTS.cacheScope}",`,
  privateHead: '"ttlMs":0,"cacheScope":"private",',
  resourceNotFoundCode: RPC_ERROR.invalidParams,
};

/** The three request headers the binding mirrors from the body. */
export interface MirroredHeaders {
  protocolVersion: string | undefined;
  method: string | undefined;
  name: string | undefined;
}

/** A refusal of the modern framing: an HTTP status and a JSON-RPC error body. */
export interface EraRefusal {
  status: number;
  body: string;
}

interface Message {
  id?: JsonRpcId;
  method: string;
  params?: unknown;
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** Era selection is body-primary: a message claims the modern era by naming its protocol version in `_meta`. */
export function claimsModernEra(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META_KEY.protocolVersion in meta;
}

const refusal = (
  status: number,
  id: JsonRpcId,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): EraRefusal => ({
  status,
  body: rpcErrorBody(id, code, message, data),
});

const headerMismatch = (id: JsonRpcId, message: string) =>
  refusal(400, id, RPC_ERROR.headerMismatch, `Header mismatch: ${message}`);

export function unsupportedVersion(id: JsonRpcId, requested: string | undefined): EraRefusal {
  return refusal(400, id, RPC_ERROR.unsupportedProtocolVersion, 'Unsupported protocol version', {
    supported: ALL_PROTOCOL_VERSIONS,
    ...(requested !== undefined ? { requested } : {}),
  });
}

/** "A request missing any required field is malformed; the server MUST reject it with -32602 … 400" (basic/index.mdx). */
function envelopeProblem(meta: Record<string, unknown>): string | null {
  const version = meta[META_KEY.protocolVersion];
  if (typeof version !== 'string') return `${META_KEY.protocolVersion}: expected a protocol version string`;
  if (!(META_KEY.clientCapabilities in meta)) return `${META_KEY.clientCapabilities}: missing`;
  // The everyday envelope ({} and {name, version}) is checked by hand first (src/mcp/plain-envelope.ts).
  const capabilities = meta[META_KEY.clientCapabilities];
  if (!isNoCapabilities(capabilities) && !ClientCapabilitiesSchema.safeParse(capabilities).success) {
    return `${META_KEY.clientCapabilities}: expected client capabilities`;
  }
  const clientInfo = meta[META_KEY.clientInfo];
  if (
    META_KEY.clientInfo in meta &&
    !isBareImplementation(clientInfo) &&
    !ImplementationSchema.safeParse(clientInfo).success
  ) {
    return `${META_KEY.clientInfo}: expected { name, version }`;
  }
  if (META_KEY.logLevel in meta && !LoggingLevelSchema.safeParse(meta[META_KEY.logLevel]).success) {
    return `${META_KEY.logLevel}: expected a logging level`;
  }
  return null;
}

const BASE64_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
const PLAIN_HEADER_VALUE = /^[\x20-\x7e\t]*$/;

/** An `Mcp-Name` value as the client meant it: Base64-sentinel values decoded (streamable-http.mdx, "Value Encoding"). */
function decodeHeaderValue(value: string): string | null {
  const encoded = BASE64_SENTINEL.exec(value);
  if (encoded) return Buffer.from(encoded[1]!, 'base64').toString('utf8');
  return PLAIN_HEADER_VALUE.test(value) ? value : null;
}

/**
 * Checks a request or notification that claims the modern era, or null when it may be dispatched. Notifications
 * are only cross-checked: the revision sets no header requirements for notification POSTs.
 */
export function admitModernMessage(message: Message, headers: MirroredHeaders): EraRefusal | null {
  const id = message.id ?? null;
  const isRequest = message.id !== undefined;
  const meta = metaOf(message.params) ?? {};
  const problem = envelopeProblem(meta);
  if (problem)
    return refusal(
      400,
      id,
      RPC_ERROR.invalidParams,
      `Invalid _meta envelope for protocol revision 2026-07-28: ${problem}`,
    );
  const claimed = meta[META_KEY.protocolVersion] as string;
  // "The header value MUST match io.modelcontextprotocol/protocolVersion … 400 Bad Request and a HeaderMismatch".
  if (headers.protocolVersion !== undefined && headers.protocolVersion !== claimed) {
    return headerMismatch(
      id,
      `MCP-Protocol-Version header value '${headers.protocolVersion}' does not match body value '${claimed}'`,
    );
  }
  if (headers.method !== undefined && headers.method !== message.method) {
    return headerMismatch(
      id,
      `Mcp-Method header value '${headers.method}' does not match body value '${message.method}'`,
    );
  }
  if (!isModernProtocolVersion(claimed)) return unsupportedVersion(id, claimed);
  if (!isRequest) return null;
  // The standard headers "are REQUIRED for compliance"; a missing one is a validation failure (-32020).
  if (headers.protocolVersion === undefined) return headerMismatch(id, 'the MCP-Protocol-Version header is required');
  if (headers.method === undefined) return headerMismatch(id, 'the Mcp-Method header is required');
  const nameField = NAMED_METHODS[message.method];
  if (nameField) {
    if (headers.name === undefined) return headerMismatch(id, `the Mcp-Name header is required for ${message.method}`);
    const name = decodeHeaderValue(headers.name);
    if (name === null) return headerMismatch(id, 'the Mcp-Name header value contains invalid characters');
    const bodyValue = (message.params as Record<string, unknown> | undefined)?.[nameField];
    if (name !== bodyValue) {
      return headerMismatch(
        id,
        `Mcp-Name header value '${headers.name}' does not match body value '${String(bodyValue)}'`,
      );
    }
  }
  // "If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and -32601".
  if (!MODERN_ERA.hasMethod(message.method)) {
    return refusal(404, id, RPC_ERROR.methodNotFound, `Method not found: ${message.method}`);
  }
  return null;
}

/** A request with no `_meta` claim under a modern MCP-Protocol-Version header lacks the required envelope: -32602, 400. */
export function missingEnvelope(id: JsonRpcId, headerVersion: string): EraRefusal {
  return refusal(
    400,
    id,
    RPC_ERROR.invalidParams,
    `Invalid params: the MCP-Protocol-Version header names protocol revision ${headerVersion}, but the request is missing ` +
      `the required per-request envelope key(s): ${META_KEY.protocolVersion}, ${META_KEY.clientCapabilities}`,
  );
}
