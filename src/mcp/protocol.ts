import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/** MCP protocol constants for this server (docs/architecture.md, "MCP transport"). */

/** The spec's revision, answered when a client asks for one we do not serve. */
export const PRIMARY_PROTOCOL_VERSION = '2025-06-18';

/** Revisions with Streamable HTTP whose tool semantics we serve unchanged. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

export function isSupportedProtocolVersion(version: string): boolean {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** JSON-RPC error codes: the standard ones from the SDK, plus our server-defined range for HTTP-level refusals. */
export const RPC_ERROR = {
  parseError: ErrorCode.ParseError,
  invalidRequest: ErrorCode.InvalidRequest,
  methodNotFound: ErrorCode.MethodNotFound,
  invalidParams: ErrorCode.InvalidParams,
  internalError: ErrorCode.InternalError,
  /** An HTTP-level refusal (auth, origin, rate limit, …); error.data.code carries our error code. */
  serverRefusal: -32000,
} as const;

export type JsonRpcId = string | number | null;

export function rpcErrorBody(id: JsonRpcId, code: number, message: string, data?: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } });
}

export function rpcResultBody(id: JsonRpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export const SERVER_INSTRUCTIONS =
  'Canvas Tool Interface. Read a canvas with get_canvas and pass layout.revision as base_revision to create_canvas_node and ' +
  'delete_canvas_node; on revision_conflict re-read, merge and retry. A text node is textAnnotationNode with data.content and ' +
  'data.displayName. Never send read results back as a layout payload. Node run ids are not chat run ids or skill run ids. ' +
  'List skills with list_zone_skills before using a skill_id. Writes need an X-Agent-Run-Id header naming your canvas chat run.';
