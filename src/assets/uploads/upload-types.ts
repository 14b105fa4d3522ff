import { UPLOAD_TYPES, UPLOAD_TYPES_IN_WORDS, type UploadMediaKind } from '../../contract/uploads.js';

/** The kind of file an upload is, by the type found in its bytes; null for a type uploads refuse (src/contract/uploads.ts). */
export function uploadKindOf(mimeType: string): UploadMediaKind | null {
  return Object.hasOwn(UPLOAD_TYPES, mimeType) ? UPLOAD_TYPES[mimeType]! : null;
}

export const ALLOWED_IN_WORDS = UPLOAD_TYPES_IN_WORDS;
