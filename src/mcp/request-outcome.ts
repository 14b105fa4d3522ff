import type { RpcReply } from './protocol.js';

/**
 * What the MCP endpoint reports about every request it answered (its access log line and metrics). A failed tool
 * call is told apart from a success in both: `tool_error` (an isError result, with our error code), `rpc_error` (a
 * JSON-RPC error such as an unknown tool), or `refused` (an HTTP-level refusal: auth, rate limit, size, …).
 */
export type McpResult = 'ok' | 'tool_error' | 'rpc_error' | 'refused';

export interface McpOutcome {
  status: number;
  /** The JSON-RPC method ('tools/call', …), when the request got that far. */
  rpcMethod: string | null;
  tool: string | null;
  result: McpResult;
  errorCode: string | null;
  seconds: number;
}

export type McpObserver = (outcome: McpOutcome) => void;

/** The JSON-RPC error code of a reply that is one, else null (replies with a result, tool errors included). */
export function rpcErrorCodeOf(reply: RpcReply): number | null {
  // Error replies are one short string; successes are larger or chunked, and never start with an error member.
  if (reply.length !== 1 || typeof reply[0] !== 'string' || !reply[0].includes('"error":{')) return null;
  try {
    const parsed = JSON.parse(reply[0]) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === 'number' ? parsed.error.code : null;
  } catch {
    return null;
  }
}

/** Our error code carried by a refusal body ({ error: { code: -32000, data: { code } } }), when it has one. */
export function refusalErrorCodeOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { error?: { data?: { code?: unknown } } };
    return typeof parsed.error?.data?.code === 'string' ? parsed.error.data.code : null;
  } catch {
    return null;
  }
}

/** Classifies a request from the fields of its access log line. */
export function mcpResultOf(fields: { status?: unknown; error_code?: unknown; rpc_error?: unknown }): McpResult {
  if (typeof fields.status === 'number' && fields.status >= 400) return 'refused';
  if (fields.error_code !== undefined) return 'tool_error';
  if (fields.rpc_error !== undefined) return 'rpc_error';
  return 'ok';
}

/** Notes on an access log line what a refusal body says: our error code, and the JSON-RPC error code. */
export function noteRefusal(fields: Record<string, unknown>, body: string): void {
  const errorCode = refusalErrorCodeOf(body);
  if (errorCode !== null && fields.error_code === undefined) fields.error_code = errorCode;
  const rpcError = rpcErrorCodeOf([body]);
  if (rpcError !== null) fields.rpc_error = rpcError;
}

/** The outcome of a request, from the fields of its access log line. */
export function mcpOutcomeOf(fields: Record<string, unknown>, seconds: number): McpOutcome {
  return {
    status: typeof fields.status === 'number' ? fields.status : 0,
    rpcMethod: typeof fields.rpc === 'string' ? fields.rpc : null,
    tool: typeof fields.tool === 'string' ? fields.tool : null,
    result: mcpResultOf(fields),
    errorCode: typeof fields.error_code === 'string' ? fields.error_code : null,
    seconds,
  };
}
