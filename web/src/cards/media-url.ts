/**
 * Which URLs a card may make the browser fetch (docs/security.md, "The web canvas and the MCP App"). Node data is
 * written by agents too: an image whose URL is `/auth/login?token=…` or an API route would be fetched with the viewer's
 * cookie the moment the card came into view. Cards draw media only from the server's own origin, and never from its
 * API, sign-in, MCP or metrics paths.
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

const ASSET_URL = /^((?:https?:\/\/[^/?#]+)?\/assets\/asset_[A-Za-z0-9_-]{16})(?=[?#]|$)/;

/**
 * Where a picture is shown small (cards, frames, shot rows, versions), its thumbnail instead: a
 * picture kept on this server (`/assets/<id>`, signed or not) becomes `/assets/<id>/thumbnail` with the same signature,
 * at most 480 px and made once, so a board of a thousand cards never downloads its originals. Other URLs are as given.
 */
export function thumbnailUrl(url: string | undefined): string | undefined {
  return url?.replace(ASSET_URL, '$1/thumbnail');
}

/** `safeMediaUrl` of a picture's thumbnail. */
export function safeThumbnailUrl(url: string | undefined, mediaOrigin: string | null): string | undefined {
  return safeMediaUrl(thumbnailUrl(url), mediaOrigin);
}
