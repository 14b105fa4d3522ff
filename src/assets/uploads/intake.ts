import { open, stat } from 'node:fs/promises';
import { describeUnknown } from '../media-types.js';
import { prepareAudioVideo } from './av-intake.js';
import { prepareImage } from './image-intake.js';
import { UploadRefused, type PreparedUpload } from './prepared.js';
import { ALLOWED_IN_WORDS, uploadKindOf } from './upload-types.js';

/**
 * One uploaded file, from the bytes received to what is kept: its type found in its bytes (file-type; the name and the
 * sender's content-type are never asked), refused with the type found when it is not one uploads take, then cleaned by
 * kind: pictures re-encoded without metadata, films and sound copied without it, a PDF checked whole.
 */

export interface UploadLimits {
  maxBytes: number;
  maxImagePixels: number;
}

/** Waits for a turn at the media tools and runs `work` in it (src/backend/uploads/media-slots.ts). */
export type MediaTurn = <T>(work: () => Promise<T>) => Promise<T>;

export async function prepareUpload(
  source: string,
  workDir: string,
  limits: UploadLimits,
  mediaTurn: MediaTurn = (work) => work(),
): Promise<PreparedUpload> {
  const { fileTypeFromFile } = await import('file-type');
  const sniffed = await fileTypeFromFile(source);
  const kind = sniffed ? uploadKindOf(sniffed.mime) : null;
  if (!sniffed || !kind) {
    const found = sniffed ? sniffed.mime : describeUnknown(await head(source));
    throw new UploadRefused(
      'unsupported_media_type',
      `This file is ${sniffed ? `of type ${found}` : found}; uploads take ${ALLOWED_IN_WORDS}.`,
      { found },
    );
  }
  switch (kind) {
    case 'image':
      return prepareImage(source, sniffed.mime, workDir, limits.maxImagePixels);
    case 'video':
    case 'audio':
      // ffprobe and ffmpeg take a process and a core each: they run in turn, not one per request.
      return mediaTurn(() => prepareAudioVideo(source, sniffed.mime, workDir));
    case 'document':
      return prepareDocument(source);
  }
}

/**
 * A PDF is kept as it came (it is served as a download, never shown inline from this origin), once its end is there:
 * a file cut short has no `%%EOF` in its last kilobytes.
 */
async function prepareDocument(source: string): Promise<PreparedUpload> {
  const { size } = await stat(source);
  const tail = await bytesAt(source, Math.max(0, size - 2048), Math.min(size, 2048));
  if (!tail.toString('latin1').includes('%%EOF'))
    throw new UploadRefused('invalid_arguments', 'The PDF is cut short: its end (%%EOF) is missing.');
  return {
    mediaKind: 'document',
    main: { path: source, mimeType: 'application/pdf', byteSize: size },
    thumbnail: null,
    width: null,
    height: null,
    durationMs: null,
  };
}

function head(source: string): Promise<Buffer> {
  return bytesAt(source, 0, 512);
}

async function bytesAt(source: string, position: number, length: number): Promise<Buffer> {
  const file = await open(source, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
