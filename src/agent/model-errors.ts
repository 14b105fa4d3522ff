import { APICallError, RetryError } from 'ai';

/**
 * What ends a chat turn when the model provider fails, in one sentence a person can act on (the provider's own
 * message may carry request details; it goes to the log, not to the chat). Writes already committed stay; nothing is
 * half written, since every write is atomic on the tool server.
 */

function retryAfterSeconds(headers: Record<string, string> | undefined): number | null {
  const value = headers?.['retry-after'] ?? headers?.['Retry-After'];
  const seconds = value === undefined ? NaN : Number(value);
  return Number.isFinite(seconds) ? Math.ceil(seconds) : null;
}

export function describeModelFailure(error: unknown): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    if (status === 401 || status === 403)
      return `The model provider refused the API key (HTTP ${status}): check CANVAS_MCP_MODEL_API_KEY.`;
    if (status === 429) {
      const wait = retryAfterSeconds(cause.responseHeaders);
      return `The model provider is limiting requests (HTTP 429)${wait === null ? '' : `; it asks to wait ${wait} s`}. Send your message again in a moment.`;
    }
    if (status === 404) return 'The model provider does not know this model (HTTP 404): check CANVAS_MCP_MODEL.';
    if (status !== undefined && status >= 500)
      return `The model provider failed (HTTP ${status}). Send your message again in a moment.`;
    if (status === 200)
      return "The model's answer was cut off before it finished. Nothing it had not finished was applied; send your message again.";
    if (status !== undefined) return `The model provider refused the request (HTTP ${status}).`;
    return 'The model provider could not be reached. Check CANVAS_MCP_MODEL_BASE_URL and the network, then send your message again.';
  }
  const name = (cause as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return 'The model stopped answering and the turn timed out. Send your message again.';
  return 'The assistant failed to answer. Send your message again; if it keeps failing, the server log says why.';
}
