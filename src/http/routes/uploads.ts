import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Hono } from 'hono';
import {
  DirectUploadBody,
  DirectUploadComplete,
  DirectUploadTicket,
  ErrorBody,
  UploadForm,
  UploadReceipt,
} from '../../contract/index.js';
import type { Uploads } from '../../backend/uploads/uploads.js';
import type { DirectUploads } from '../../backend/uploads/direct-uploads.js';
import { CanvasError } from '../../shared/errors.js';
import type { BackendHttpEnv } from '../http-env.js';
import { receiveFiles } from '../multipart-files.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/**
 * POST /api/v2/projects/{project_id}/canvases/{canvas_id}/uploads: a person's or an agent's own files,
 * multipart/form-data with one part named `file` per file. The caller is checked before the body is read; the body is
 * not held to the API's 1 MiB limit but to --upload-max-bytes a file, as it streams to disk.
 */

const UPLOAD = apiRoute({
  method: 'post',
  path: `${CANVAS}/uploads`,
  operationId: 'uploadFiles',
  summary:
    'Upload pictures, films, sound or PDFs (editors): each kept in the asset store, its type decided from its bytes, answered with the node that shows it (node_type, node_data) to create at a base_revision.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  multipart: UploadForm,
  responses: {
    201: ok('Kept, one entry per file in order.', UploadReceipt),
    413: ok('A file is over --upload-max-bytes, or the request has too many files: nothing was kept.', ErrorBody),
    415: ok(
      'A file is not an allowed picture, film, sound or PDF (the type found is named): nothing was kept.',
      ErrorBody,
    ),
    422: ok(
      "The files would pass the project's storage quota (--project-storage-quota-bytes; details: used_bytes, limit_bytes), or another limit: nothing was kept.",
      ErrorBody,
    ),
    429: ok(
      "The caller's hourly upload bytes (--upload-bytes-per-hour) or films being read at once (--upload-media-jobs-per-person) are used up: retry after Retry-After.",
      ErrorBody,
    ),
    503: ok(
      'The server is reading as many films and sounds as it queues (--upload-media-queue): retry later.',
      ErrorBody,
    ),
  },
});

/** With the S3 asset store: a presigned PUT for one large file, then its completion (small JSON requests). */
const DIRECT_UPLOAD = apiRoute({
  method: 'post',
  path: `${CANVAS}/uploads/direct`,
  operationId: 'startDirectUpload',
  summary:
    'With the S3 asset store (editors): a presigned PUT for one large file of the size given, sent straight to the bucket; then complete it.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: DirectUploadBody,
  responses: {
    201: ok('PUT the bytes to url with these headers before expires_at.', DirectUploadTicket),
    413: ok('The size is over --upload-max-bytes.', ErrorBody),
    422: ok("The size would pass the project's storage quota (--project-storage-quota-bytes).", ErrorBody),
    429: ok('The size is over what the caller may still upload this hour (--upload-bytes-per-hour).', ErrorBody),
  },
});

const COMPLETE_DIRECT_UPLOAD = apiRoute({
  method: 'post',
  path: `${CANVAS}/uploads/direct/complete`,
  operationId: 'completeDirectUpload',
  summary:
    'Take a directly uploaded file in (editors): the same checks as uploadFiles, the same answer; the object is removed from its landing place.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: DirectUploadComplete,
  responses: {
    201: ok('Kept.', UploadReceipt),
    415: ok('Not an allowed picture, film, sound or PDF (the type found is named): nothing was kept.', ErrorBody),
  },
});

export const UPLOAD_ROUTES = [UPLOAD, DIRECT_UPLOAD, COMPLETE_DIRECT_UPLOAD];

/** Whether a request goes to the upload route (the API's body limit does not apply to it). */
export function isUploadPath(path: string): boolean {
  return /^\/api\/v2\/projects\/[^/]+\/canvases\/[^/]+\/uploads$/.test(path);
}

export function registerUploadRoutes(app: Hono<BackendHttpEnv>, uploads: Uploads, direct: DirectUploads): void {
  handle(app, DIRECT_UPLOAD, async (c, input) => {
    const ref = canvasRef(input.params());
    return c.json(await direct.ticket(c.get('caller'), ref, await input.body()), 201);
  });
  handle(app, COMPLETE_DIRECT_UPLOAD, async (c, input) => {
    const ref = canvasRef(input.params());
    const { upload_token } = await input.body();
    return c.json(await direct.complete(c.get('caller'), ref, upload_token), 201);
  });
  // The files stream to disk as they arrive (src/http/multipart-files.ts), never whole in memory.
  handle(app, UPLOAD, async (c, input) => {
    const ref = canvasRef(input.params());
    const caller = c.get('caller');
    await uploads.authorize(caller, ref);
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data/i.test(contentType) || !c.req.raw.body)
      throw new CanvasError(
        'unsupported_media_type',
        'Send files as multipart/form-data, one part named "file" per file.',
      );
    const work = await uploads.workDir();
    try {
      const files = await receiveFiles(
        Readable.fromWeb(c.req.raw.body as WebReadableStream),
        contentType,
        { maxBytes: uploads.settings.maxBytes, maxFiles: uploads.settings.filesPerRequest },
        work.dir,
      );
      return c.json(await uploads.accept(caller, ref, files), 201);
    } finally {
      await work.release();
    }
  });
}
