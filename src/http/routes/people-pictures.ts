import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Hono } from 'hono';
import { z } from 'zod';
import { ErrorBody, PictureForm, PictureView } from '../../contract/index.js';
import type { PeoplePictures } from '../../backend/team/people-pictures.js';
import type { Uploads } from '../../backend/uploads/uploads.js';
import { CanvasError } from '../../shared/errors.js';
import type { BackendHttpEnv } from '../http-env.js';
import { receiveFiles } from '../multipart-files.js';
import { apiRoute, handle } from '../route-declaration.js';
import { FileBytes, ok } from '../route-parameters.js';

/**
 * The picture a person is shown by (docs/ui.md, "Names"): set and removed by its person, read by the people who share a
 * project with them. The picture's body is read like an upload's (streamed to a work folder, bounded as it arrives),
 * not held to the API's 1 MiB limit.
 */

const SET_PICTURE = apiRoute({
  method: 'put',
  path: '/api/v1/me/picture',
  operationId: 'setMyPicture',
  summary:
    'The picture the signed-in person is shown by: one file through the upload rules (type from its bytes, pixels bounded, metadata dropped), kept as a 256-pixel square WebP.',
  tag: 'people',
  auth: 'caller',
  multipart: PictureForm,
  responses: {
    200: ok('The picture as kept.', PictureView),
    413: ok('The file is larger than the picture limit (12 MiB, or the upload limit if lower).', ErrorBody),
    415: ok('The file is not a picture (the type found is named).', ErrorBody),
  },
});

const REMOVE_PICTURE = apiRoute({
  method: 'delete',
  path: '/api/v1/me/picture',
  operationId: 'removeMyPicture',
  summary: 'Removes the picture the signed-in person is shown by (their initials show again).',
  tag: 'people',
  auth: 'caller',
  responses: { 200: ok('Removed.', PictureView) },
});

const PICTURE = apiRoute({
  method: 'get',
  path: '/api/v1/pictures/:picture_id',
  operationId: 'getPicture',
  summary: "A person's picture (WebP), for the people who share a project with them; 404 for anyone else.",
  tag: 'people',
  auth: 'caller',
  params: z.object({ picture_id: z.string().regex(/^pic_[A-Za-z0-9_-]{16}$/, { error: 'is not a picture id' }) }),
  responses: { 200: { description: 'The picture.', content: { 'image/webp': FileBytes } } },
});

export const PEOPLE_PICTURE_ROUTES = [SET_PICTURE, REMOVE_PICTURE, PICTURE];

/** The picture's body is bounded by its own limit as it streams, not by the API's JSON limit. */
export const isPicturePath = (path: string) => path === '/api/v1/me/picture';

export function registerPeoplePictureRoutes(
  app: Hono<BackendHttpEnv>,
  pictures: PeoplePictures,
  uploads: Pick<Uploads, 'workDir'>,
): void {
  handle(app, SET_PICTURE, async (c) => {
    const caller = c.get('caller');
    pictures.authorize(caller);
    const contentType = c.req.header('content-type') ?? '';
    if (!/^multipart\/form-data/i.test(contentType) || !c.req.raw.body)
      throw new CanvasError(
        'unsupported_media_type',
        'Send the picture as multipart/form-data, in a part named "file".',
      );
    const work = await uploads.workDir();
    try {
      const [file] = await receiveFiles(
        Readable.fromWeb(c.req.raw.body as WebReadableStream),
        contentType,
        { maxBytes: pictures.limits.maxBytes, maxFiles: 1 },
        work.dir,
      );
      if (!file)
        throw new CanvasError('invalid_arguments', 'Send one picture in a part named "file".', {
          issues: [{ path: 'file', message: 'is missing' }],
        });
      return c.json(await pictures.set(caller, file.path, work.dir));
    } finally {
      await work.release();
    }
  });

  handle(app, REMOVE_PICTURE, async (c) => {
    await pictures.remove(c.get('caller'));
    return c.json({ picture_url: null });
  });

  handle(app, PICTURE, async (c, input) => {
    const bytes = await pictures.read(c.get('caller'), input.params().picture_id);
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': 'image/webp',
      'content-length': String(bytes.length),
      // A picture's id changes with every new picture: what it names never changes.
      'cache-control': 'private, max-age=86400, immutable',
      'x-content-type-options': 'nosniff',
    });
  });
}
