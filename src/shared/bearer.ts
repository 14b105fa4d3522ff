/**
 * `Authorization: Bearer <token>` with exactly one Bearer prefix (spec: Authentication 1). The scheme is
 * case-insensitive (RFC 9110); the token is one token68 word, so `Bearer Bearer t` and `Bearer a b` are refused.
 */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export type BearerParse = { ok: true; token: string } | { ok: false; reason: string };

export function parseBearer(header: string | undefined | null): BearerParse {
  if (header === undefined || header === null || header.trim() === '') {
    return { ok: false, reason: 'Missing Authorization header: send Authorization: Bearer <token>.' };
  }
  const match = BEARER.exec(header.trim());
  if (!match) {
    return {
      ok: false,
      reason: 'Malformed Authorization header: send exactly one "Bearer" prefix followed by the token.',
    };
  }
  return { ok: true, token: match[1]! };
}

/** Query parameters that would carry a token in the URL (refused: URLs end up in logs and histories). */
export const TOKEN_QUERY_PARAMETERS = ['access_token', 'token', 'bearer', 'api_key', 'apikey', 'key'];

export function hasTokenInQuery(url: URL): boolean {
  return TOKEN_QUERY_PARAMETERS.some((name) => url.searchParams.has(name));
}

/**
 * How many times a header was sent (raw header list: [name, value, name, value, …]). Node keeps only the first
 * Authorization of several; a request with two is ambiguous and refused, never resolved by position.
 */
export function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === name) count += 1;
  }
  return count;
}

export const DUPLICATE_AUTHORIZATION = 'More than one Authorization header: send exactly one.';
