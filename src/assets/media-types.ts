import type { AssetKind } from '../contract/index.js';

/**
 * What a file is, decided from its bytes (the `file-type` sniffer), never from a name or a `content-type` someone
 * else sent (docs/security.md, "Assets and provider results"). A file of another type than its kind allows is refused:
 * SVG, HTML and anything a browser would run are never kept as a picture, a sound or a film.
 */

/** The types each kind of output may be. Raster pictures only: an SVG can carry script. */
const ALLOWED: Record<AssetKind, ReadonlySet<string>> = {
  image: new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif']),
  audio: new Set([
    'audio/mpeg',
    'audio/wav',
    'audio/ogg',
    'audio/opus',
    'audio/aac',
    'audio/flac',
    'audio/mp4',
    'audio/x-m4a',
    'audio/webm',
    // Sound in a film container (an .m4a or a .webm sound file sniffs as the container).
    'video/mp4',
    'video/webm',
  ]),
  video: new Set(['video/mp4', 'video/webm', 'video/quicktime', 'video/x-matroska']),
  model: new Set(['model/gltf-binary']),
  json: new Set(['application/json']),
};

/**
 * Types a browser may show inline from this origin: raster pictures, sound and film. Anything else an asset route
 * answers as a download (Content-Disposition: attachment), whatever its row says.
 */
export function isInlineSafe(mimeType: string): boolean {
  const type = mimeType.split(';', 1)[0]!.trim().toLowerCase();
  return ALLOWED.image.has(type) || type.startsWith('audio/') || type.startsWith('video/');
}

/** Whether a type named somewhere (a `data:` URI's) is one this kind of output may be. */
export function isAllowedType(kind: AssetKind, mimeType: string): boolean {
  return ALLOWED[kind].has(mimeType.split(';', 1)[0]!.trim().toLowerCase());
}

export type MediaTypeVerdict = { ok: true; mimeType: string } | { ok: false; found: string };

/** The type of an output's bytes, if its kind allows it; else what was found instead (for the error). */
export async function mediaTypeOf(kind: AssetKind, bytes: Uint8Array): Promise<MediaTypeVerdict> {
  if (kind === 'json') {
    try {
      JSON.parse(Buffer.from(bytes).toString('utf8'));
      return { ok: true, mimeType: 'application/json' };
    } catch {
      return { ok: false, found: 'not JSON' };
    }
  }
  // file-type is imported by the first file sniffed, not at the server's start.
  const { fileTypeFromBuffer } = await import('file-type');
  const sniffed = await fileTypeFromBuffer(bytes);
  if (sniffed && ALLOWED[kind].has(sniffed.mime)) return { ok: true, mimeType: sniffed.mime };
  return { ok: false, found: sniffed ? sniffed.mime : describeUnknown(bytes) };
}

/** What a file the sniffer does not know looks like: text that is markup says so (an SVG, an HTML page). */
export function describeUnknown(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('utf8').trimStart().toLowerCase();
  if (head.includes('<svg')) return 'an SVG document';
  if (head.startsWith('<!doctype html') || head.includes('<html') || head.includes('<script'))
    return 'an HTML document';
  if (head.startsWith('<')) return 'an XML or HTML document';
  return bytes.length === 0 ? 'an empty file' : 'a file of no known type';
}
