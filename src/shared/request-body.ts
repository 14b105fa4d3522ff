import contentType from 'content-type';

/**
 * What a JSON request body must be on every route (REST and /mcp): `application/json`, UTF-8 (the only charset
 * JSON allows on the wire, RFC 8259), and well-formed UTF-8 bytes. Anything else is refused, never decoded with
 * replacement characters.
 */

/** Why a Content-Type is not JSON we accept, or null. */
export function jsonContentTypeProblem(header: string | undefined): string | null {
  if (header === undefined || header.trim() === '') return 'Content-Type must be application/json.';
  let parsed: contentType.ParsedMediaType;
  try {
    parsed = contentType.parse(header);
  } catch {
    return `Content-Type ${JSON.stringify(header)} is malformed: send application/json.`;
  }
  if (parsed.type !== 'application/json') return `Content-Type must be application/json, not ${parsed.type}.`;
  const charset = parsed.parameters.charset;
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return `JSON bodies are UTF-8: charset=${charset} is not accepted.`;
  }
  return null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text, or null when its bytes are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}
