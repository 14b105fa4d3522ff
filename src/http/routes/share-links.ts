import type { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { CanvasError } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/ids.js';
import { CanvasId, ProjectId, ResourceId } from '../../contract/index.js';
import { ShareLinkCreateBody } from '../../contract/exports.js';
import type { ShareLinkOperations } from '../../backend/share-links.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/**
 * Share links (issue 35, item 6): owners make, list and revoke them under the canvas; anyone holding one reads what it
 * shows at /api/v1/shared/{secret}, without an account (the page at /share/{secret} does).
 */

export const SHARE_LINKS_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/share-links';
export const SHARED_PATH = '/api/v1/shared/:secret';

export function registerShareLinkRoutes(app: Hono<BackendHttpEnv>, links: ShareLinkOperations): void {
  const refOf = (params: { project_id: string; canvas_id: string }) => ({
    projectId: params.project_id,
    canvasId: params.canvas_id,
  });
  const canvas = { project_id: ProjectId, canvas_id: CanvasId };
  app.get(SHARE_LINKS_PATH, async (c) => c.json(await links.list(c.get('caller'), refOf(pathParams(c, canvas)))));
  app.post(SHARE_LINKS_PATH, async (c) => {
    const params = pathParams(c, canvas);
    return c.json(await links.create(c.get('caller'), refOf(params), await jsonBody(c, ShareLinkCreateBody)), 201);
  });
  app.delete(`${SHARE_LINKS_PATH}/:share_id`, async (c) => {
    const params = pathParams(c, { ...canvas, share_id: ResourceId });
    await links.revoke(c.get('caller'), refOf(params), params.share_id);
    return c.body(null, 204);
  });
}

/** Reads of one link a minute, and of any links from one address (guessing secrets is 2^192 work; this bounds load). */
const READS_PER_LINK = 300;
const READS_PER_ADDRESS = 600;

/** The public read of a link: no caller, no cookie; never cached (a revoked link must stop showing at once). */
export function registerSharedRoute(app: Hono<BackendHttpEnv>, links: ShareLinkOperations): void {
  const perLink = new RateLimiterMemory({ points: READS_PER_LINK, duration: 60 });
  const perAddress = new RateLimiterMemory({ points: READS_PER_ADDRESS, duration: 60 });
  const take = async (limiter: RateLimiterMemory, key: string) => {
    try {
      await limiter.consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new CanvasError('rate_limited', 'This link is being read too often: try again in a moment.', {
        retry_after_ms: refusal.msBeforeNext,
      });
    }
  };
  app.get(SHARED_PATH, async (c) => {
    await take(perAddress, c.env.incoming?.socket.remoteAddress ?? 'unknown');
    await take(perLink, sha256Hex(c.req.param('secret')));
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    return c.json(await links.open(c.req.param('secret')));
  });
}
