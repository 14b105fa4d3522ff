import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Hono } from 'hono';
import { CanvasId, DirectUploadBody, DirectUploadComplete, ProjectId } from '../../contract/index.js';
import type { Uploads } from '../../backend/uploads.js';
import type { DirectUploads } from '../../backend/direct-uploads.js';
import { CanvasError } from '../../shared/errors.js';
import type { BackendHttpEnv } from '../http-env.js';
import { receiveFiles } from '../multipart-files.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/**
 * POST /api/v2/projects/{project_id}/canvases/{canvas_id}/uploads (issue 32): a person's or an agent's own files,
 * multipart/form-data with one part named `file` per file. The caller is checked before the body is read; the body is
 * not held to the API's 1 MiB limit but to --upload-max-bytes a file, as it streams to disk.
 */

export const UPLOADS_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/uploads';
/** With the S3 asset store: a presigned PUT for one large file, then its completion (small JSON requests). */
export const DIRECT_UPLOAD_PATH = `${UPLOADS_PATH}/direct`;
export const DIRECT_UPLOAD_COMPLETE_PATH = `${UPLOADS_PATH}/direct/complete`;

/** Whether a request goes to the upload route (the API's body limit does not apply to it). */
export function isUploadPath(path: string): boolean {
  return /^\/api\/v2\/projects\/[^/]+\/canvases\/[^/]+\/uploads$/.test(path);
}

export function registerUploadRoutes(app: Hono<BackendHttpEnv>, uploads: Uploads, direct: DirectUploads): void {
  app.post(DIRECT_UPLOAD_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    const ref = { projectId: params.project_id, canvasId: params.canvas_id };
    return c.json(await direct.ticket(c.get('caller'), ref, await jsonBody(c, DirectUploadBody)), 201);
  });
  app.post(DIRECT_UPLOAD_COMPLETE_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    const ref = { projectId: params.project_id, canvasId: params.canvas_id };
    const { upload_token } = await jsonBody(c, DirectUploadComplete);
    return c.json(await direct.complete(c.get('caller'), ref, upload_token), 201);
  });
  app.post(UPLOADS_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
    const ref = { projectId: params.project_id, canvasId: params.canvas_id };
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
