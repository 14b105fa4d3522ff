import type { UploadMediaKind } from '../../contract/uploads.js';

/** A file of an upload ready to keep: where it is in the work folder, its type and size. */
export interface PreparedFile {
  path: string;
  mimeType: string;
  byteSize: number;
}

/** An upload as it will be kept: the file (cleaned), its thumbnail or poster, and what was measured of it. */
export interface PreparedUpload {
  mediaKind: UploadMediaKind;
  main: PreparedFile;
  thumbnail: PreparedFile | null;
  width: number | null;
  height: number | null;
  durationMs: number | null;
}

/** A file refused for what it is, with the words a person reads and the HTTP-facing error code. */
export class UploadRefused extends Error {
  constructor(
    readonly code: 'unsupported_media_type' | 'invalid_arguments' | 'limit_exceeded' | 'payload_too_large',
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'UploadRefused';
  }
}
