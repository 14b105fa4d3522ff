/**
 * Which URLs a card may make the browser fetch (issue 17, defect 5). Node data is written by agents too: an image
 * whose URL is `/auth/login?token=…` or an API route would be fetched with the viewer's cookie the moment the card
 * came into view. Cards draw media only from the server's own origin, and never from its API, sign-in, MCP or
 * metrics paths.
 */

const NOT_MEDIA = /^\/(api|auth|mcp|metrics)(\/|$)/i;

function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** The URL to draw, absolute, or undefined when a card must not fetch it. */
export function safeMediaUrl(url: string | undefined, mediaOrigin: string | null): string | undefined {
  if (!url || !mediaOrigin) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url, mediaOrigin);
  } catch {
    return undefined;
  }
  if (parsed.origin !== mediaOrigin) return undefined;
  // The server may decode %-escapes before routing: judge the decoded path.
  if (NOT_MEDIA.test(decodedPath(parsed.pathname)) || NOT_MEDIA.test(parsed.pathname)) return undefined;
  return parsed.href;
}
