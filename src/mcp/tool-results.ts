import type { ToolErrorResult } from '../contract/index.js';
import type { CanvasError } from '../shared/errors.js';
import type { JsonPayload } from '../shared/json-payload.js';
import type { RpcReply } from './dispatcher.js';
import type { JsonRpcId } from './protocol.js';

/**
 * Tool results. Success: `content` holds the JSON text and `structuredContent` the object. Failure: isError,
 * a one-line message the model can act on, and structuredContent.error = { code, message, retryable, details }.
 */

const BETWEEN_TEXT_AND_STRUCTURED = Buffer.from('"}],"structuredContent":');
const END_OF_RESULT = Buffer.from('}}');

export function toolSuccessReply(id: JsonRpcId, payload: JsonPayload): RpcReply {
  return [
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`,
    ...payload.chunks('escaped'),
    BETWEEN_TEXT_AND_STRUCTURED,
    ...payload.chunks('json'),
    END_OF_RESULT,
  ];
}

export function toolErrorResult(id: JsonRpcId, error: CanvasError): RpcReply {
  const structuredContent: ToolErrorResult = {
    error: { code: error.code, message: error.message, retryable: error.retryable, details: error.details },
  };
  const result = {
    content: [{ type: 'text', text: `${error.code}: ${error.message}`.replace(/\s*\n\s*/g, ' ') }],
    structuredContent,
    isError: true,
  };
  return [JSON.stringify({ jsonrpc: '2.0', id, result })];
}
