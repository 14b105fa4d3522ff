import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { ReceivedFile } from '../backend/uploads/uploads.js';
import { CanvasError } from '../shared/errors.js';
import { cleanFileName } from '../assets/uploads/file-name.js';

/**
 * The files of a multipart/form-data body (busboy), each streamed to its own file in a work folder as it arrives:
 * never whole in memory, and refused the moment it passes the size limit. A body that ends early (a dropped
 * connection) or is not valid multipart rejects; what was written stays in the work folder, which its caller removes.
 */

export interface MultipartLimits {
  maxBytes: number;
  maxFiles: number;
}

export function receiveFiles(
  body: Readable,
  contentType: string,
  limits: MultipartLimits,
  dir: string,
): Promise<ReceivedFile[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: {
          fileSize: limits.maxBytes,
          files: limits.maxFiles,
          fields: 20,
          fieldSize: 4096,
          parts: limits.maxFiles + 20,
        },
      });
    } catch {
      reject(
        new CanvasError('unsupported_media_type', 'Send files as multipart/form-data, one part named "file" per file.'),
      );
      return;
    }
    const files: ReceivedFile[] = [];
    const writes: Array<Promise<void>> = [];
    let failure: Error | null = null;
    const fail = (error: Error) => {
      failure ??= error;
      body.unpipe(parser);
      body.resume();
      reject(failure);
    };
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || failure) {
        stream.resume();
        return;
      }
      const fileName = cleanFileName(info.filename);
      const path = join(dir, `received-${files.length}`);
      files.push({ path, fileName });
      stream.on('limit', () =>
        fail(
          new CanvasError(
            'payload_too_large',
            `${fileName} is larger than uploads take (${limits.maxBytes.toLocaleString('en')} bytes).`,
            { file_name: fileName, max_bytes: limits.maxBytes },
          ),
        ),
      );
      writes.push(pipeline(stream, createWriteStream(path, { mode: 0o600 })).catch((error: Error) => fail(error)));
    });
    parser.on('filesLimit', () =>
      fail(
        new CanvasError(
          'limit_exceeded',
          `One upload takes at most ${limits.maxFiles} files: send the rest in another.`,
          {
            max_files: limits.maxFiles,
          },
        ),
      ),
    );
    parser.on('error', () =>
      fail(new CanvasError('invalid_arguments', 'The upload ended early or is not valid multipart/form-data.')),
    );
    parser.on('close', () => {
      void Promise.all(writes).then(() => {
        if (failure) return;
        if (files.length === 0)
          reject(
            new CanvasError('invalid_arguments', 'The upload holds no file: send one part named "file" per file.'),
          );
        else resolve(files);
      });
    });
    body.on('error', () => fail(new CanvasError('invalid_arguments', 'The upload ended early.')));
    body.pipe(parser);
  });
}
