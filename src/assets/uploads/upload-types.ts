import type { UploadMediaKind } from '../../contract/uploads.js';

/**
 * The files an upload may be, by the type found in their bytes (file-type): raster pictures, films, sound, PDF. SVG,
 * HTML and anything else a browser could run are refused, whatever the file is called (docs/security.md, "Uploads").
 */
const KIND_OF_TYPE: ReadonlyMap<string, UploadMediaKind> = new Map([
  ['image/png', 'image'],
  ['image/jpeg', 'image'],
  ['image/webp', 'image'],
  ['image/gif', 'image'],
  ['image/avif', 'image'],
  ['video/mp4', 'video'],
  ['video/quicktime', 'video'],
  ['video/webm', 'video'],
  ['video/x-matroska', 'video'],
  ['audio/mpeg', 'audio'],
  ['audio/wav', 'audio'],
  ['audio/ogg', 'audio'],
  ['audio/opus', 'audio'],
  ['audio/aac', 'audio'],
  ['audio/flac', 'audio'],
  ['audio/mp4', 'audio'],
  ['audio/x-m4a', 'audio'],
  ['application/pdf', 'document'],
]);

/** What the upload route says it takes, in words (an error names it next to what was found). */
export const ALLOWED_IN_WORDS =
  'PNG, JPEG, WebP, GIF or AVIF pictures, MP4, MOV, WebM or MKV films, MP3, WAV, OGG, Opus, AAC, FLAC or M4A sound, and PDF';

export function uploadKindOf(mimeType: string): UploadMediaKind | null {
  return KIND_OF_TYPE.get(mimeType) ?? null;
}
