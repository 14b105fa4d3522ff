import type { ToolErrorResult } from '../contract/index.js';
import type { CanvasError } from '../shared/errors.js';
import type { JsonPayload } from '../shared/json-payload.js';
import type { EraFrame } from './era.js';
import { rpcResultBody, type JsonRpcId, type RpcReply } from './protocol.js';

/**
 * Tool results. Success: `content` holds the JSON text and `structuredContent` the object. Failure: isError,
 * a one-line message the model can act on, and structuredContent.error = { code, message, retryable, details }.
 */

const END_OF_TEXT = '"}';
const BETWEEN_CONTENT_AND_STRUCTURED = Buffer.from('],"structuredContent":');
const END_OF_RESULT = Buffer.from('}}');

/** The result head of each `_meta` object per era, made once: a tool that answers the same `_meta` object reuses it. */
const heads = new WeakMap<Record<string, unknown>, Map<EraFrame, string>>();
function headOf(era: EraFrame, meta: Record<string, unknown>): string {
  let byEra = heads.get(meta);
  if (byEra === undefined) {
    byEra = new Map();
    heads.set(meta, byEra);
  }
  let head = byEra.get(era);
  if (head === undefined) {
    head = era.resultHeadWith(meta);
    byEra.set(era, head);
  }
  return head;
}

/** `extraContent` follows the JSON text block (resource links of a run's outputs). */
export function toolSuccessReply(
  id: JsonRpcId,
  payload: JsonPayload,
  era: EraFrame,
  extraContent: readonly object[] = [],
  meta: Record<string, unknown> | null = null,
): RpcReply {
  const extra = extraContent.map((item) => `,${JSON.stringify(item)}`).join('');
  const head = meta ? headOf(era, meta) : era.resultHead;
  return [
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{${head}"content":[{"type":"text","text":"`,
    ...payload.chunks('escaped'),
    END_OF_TEXT + extra,
    BETWEEN_CONTENT_AND_STRUCTURED,
    ...payload.chunks('json'),
    END_OF_RESULT,
  ];
}

export function toolErrorResult(id: JsonRpcId, error: CanvasError, era: EraFrame): RpcReply {
  const structuredContent: ToolErrorResult = {
    error: { code: error.code, message: error.message, retryable: error.retryable, details: error.details },
  };
  const result = {
    content: [{ type: 'text', text: `${error.code}: ${error.message}`.replace(/\s*\n\s*/g, ' ') }],
    structuredContent,
    isError: true,
  };
  return [rpcResultBody(id, result, era.resultHead)];
}
