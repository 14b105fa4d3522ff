import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** MCP protocol constants for this server (docs/architecture.md, "MCP transport"). */

/** The spec's revision, answered when a client asks for one we do not serve. */
export const PRIMARY_PROTOCOL_VERSION = '2025-06-18';

/** Revisions of the legacy era (an `initialize` handshake) with Streamable HTTP whose tool semantics we serve unchanged. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** Revisions of the modern era: no handshake, version and capabilities in every request's `_meta`. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** Every revision this endpoint serves, newest first: what server/discover and -32022 errors advertise. */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export function isSupportedProtocolVersion(version: string): boolean {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

export function isModernProtocolVersion(version: string): boolean {
  return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** JSON-RPC error codes: the standard ones from the SDK, plus our server-defined range for HTTP-level refusals. */
export const RPC_ERROR = {
  parseError: ErrorCode.ParseError,
  invalidRequest: ErrorCode.InvalidRequest,
  methodNotFound: ErrorCode.MethodNotFound,
  invalidParams: ErrorCode.InvalidParams,
  internalError: ErrorCode.InternalError,
  /**
   * An HTTP-level refusal (auth, origin, rate limit, …); error.data.code carries our error code. The same in both
   * eras: 2026-07-28 keeps -32000..-32019 for codes implementations already used (basic/index.mdx, "Error Codes").
   */
  serverRefusal: -32000,
  /** 2026-07-28: HTTP headers disagree with the body, or a required header is missing or malformed. */
  headerMismatch: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare (we require none). */
  missingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not served here; data lists the supported ones. */
  unsupportedProtocolVersion: -32022,
} as const;

export type JsonRpcId = string | number | null;

export function rpcErrorBody(id: JsonRpcId, code: number, message: string, data?: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } });
}

/**
 * A JSON-RPC result. `head` holds JSON members written first inside the result object, each followed by a comma:
 * how an era adds its own fields (2026-07-28: `resultType`, `_meta`, cache hints) without re-serializing anything.
 */
export function rpcResultBody(id: JsonRpcId, result: object, head = ''): string {
  const json = JSON.stringify(result);
  if (head === '') return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${json}}`;
  const members = json === '{}' ? head.slice(0, -1) : `${head}${json.slice(1, -1)}`;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{${members}}}`;
}

export const SERVER_INSTRUCTIONS =
  'Canvas Tool Interface. Read a canvas with get_canvas and pass layout.revision as base_revision to create_canvas_node and ' +
  'delete_canvas_node; on revision_conflict re-read, merge and retry. A text node is textAnnotationNode with data.content and ' +
  'data.displayName. Never send read results back as a layout payload. Node run ids are not chat run ids or skill run ids. ' +
  'List skills with list_zone_skills before using a skill_id. Writes need an X-Agent-Run-Id header naming your canvas chat run. ' +
  'For a large canvas read the resources canvas://{project_id}/{canvas_id}/outline and /nodes/{node_id} instead of the whole canvas.';

/** A reply as chunks, so large cached payloads are written without copying them into one string. */
export type RpcReply = ReadonlyArray<string | Buffer>;
