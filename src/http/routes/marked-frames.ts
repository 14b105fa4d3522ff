import type { Hono } from 'hono';
import { z } from 'zod';
import { ResourceId } from '../../contract/index.js';
import type { MarkedFrames } from '../../backend/deliverables/marked-frames.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, FileBytes } from '../route-parameters.js';

/**
 * A drawn note's marked-up frame as a PNG (docs/review.md, "Drawn notes"): for members under the canvas, and for whoever
 * holds a live review link under /api/v1/shared/{secret} (the client's threads alone, as the link's page shows them).
 */

const PNG = { 200: { description: 'The frame with the note drawn over it.', content: { 'image/png': FileBytes } } };

const MEMBER_MARKED_FRAME = apiRoute({
  method: 'get',
  path: `${CANVAS}/threads/:thread_id/comments/:comment_id/marked-frame.png`,
  operationId: 'getMarkedFrame',
  summary:
    "A comment's drawn note on the frame its thread names, as a PNG (viewers): the shot's or card's picture with the marks over it.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams.extend({ thread_id: ResourceId, comment_id: ResourceId }),
  responses: PNG,
});

const LINK_MARKED_FRAME = apiRoute({
  method: 'get',
  path: '/api/v1/shared/:secret/threads/:thread_id/comments/:comment_id/marked-frame.png',
  operationId: 'getSharedMarkedFrame',
  summary: "A drawn note on a client's thread of a review link, as a PNG (whoever holds the live link).",
  tag: 'canvas',
  auth: 'none',
  params: z.object({ secret: z.string(), thread_id: ResourceId, comment_id: ResourceId }),
  responses: PNG,
});

export const MARKED_FRAME_ROUTES = [MEMBER_MARKED_FRAME, LINK_MARKED_FRAME];

function png(c: BackendContext, bytes: Buffer, cache: string) {
  return c.body(new Uint8Array(bytes), 200, {
    'content-type': 'image/png',
    'content-length': String(bytes.length),
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
  });
}

export function registerMarkedFrameRoutes(app: Hono<BackendHttpEnv>, frames: MarkedFrames): void {
  handle(app, MEMBER_MARKED_FRAME, async (c, input) => {
    const params = input.params();
    return png(
      c,
      await frames.forMember(c.get('caller'), canvasRef(params), params.thread_id, params.comment_id),
      'private, max-age=60',
    );
  });
  handle(app, LINK_MARKED_FRAME, async (c, input) => {
    const params = input.params();
    // A revoked link ends its pictures at once: nothing kept in shared caches.
    return png(c, await frames.forLink(params.secret, params.thread_id, params.comment_id), 'no-store');
  });
}
