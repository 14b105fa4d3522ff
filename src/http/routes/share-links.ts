import type { Hono } from 'hono';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { CanvasError } from '../../shared/errors.js';
import { sha256Hex } from '../../shared/ids.js';
import { ResourceId } from '../../contract/index.js';
import { ShareLinkCreateBody, ShareLinkList, ShareLinkView, SharedBoardsView } from '../../contract/exports.js';
import type { ShareLinkOperations } from '../../backend/deliverables/share-links.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/**
 * Share links (docs/deliverables.md, "Share links"): owners make, list and revoke them under the canvas; anyone holding
 * one reads what it shows at /api/v1/shared/{secret}, without an account (the page at /share/{secret} does).
 */

const SHARE_LINKS = `${CANVAS}/share-links`;

const LIST = apiRoute({
  method: 'get',
  path: SHARE_LINKS,
  operationId: 'listShareLinks',
  summary: "The canvas's share links (owners): read-only links that present its boards without an account.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The links (their secrets are not kept).', ShareLinkList) },
});

const CREATE = apiRoute({
  method: 'post',
  path: SHARE_LINKS,
  operationId: 'createShareLink',
  summary: 'Make a share link (owners) to one board or every board of the canvas, with an expiry and chosen downloads.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: ShareLinkCreateBody,
  responses: { 201: ok('Made: the answer holds the link, once.', ShareLinkView) },
});

const REVOKE = apiRoute({
  method: 'delete',
  path: `${SHARE_LINKS}/:share_id`,
  operationId: 'revokeShareLink',
  summary: 'Revoke a share link (owners): it stops working at once.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams.extend({ share_id: ResourceId }),
  responses: { 204: { description: 'Revoked.' } },
});

const OPEN = apiRoute({
  method: 'get',
  path: '/api/v1/shared/:secret',
  operationId: 'openShareLink',
  summary:
    "What a share link shows, for anyone holding it: the boards' shots and the chosen downloads. A revoked or expired link answers 404 saying so (details.reason).",
  tag: 'canvas',
  auth: 'none',
  params: z.object({ secret: z.string() }),
  responses: {
    200: ok('The shared boards.', SharedBoardsView),
    404: { description: 'No such link, or revoked, expired or its canvas gone (details.reason says which).' },
  },
});

export const SHARE_LINK_ROUTES = [LIST, CREATE, REVOKE, OPEN];

export function registerShareLinkRoutes(app: Hono<BackendHttpEnv>, links: ShareLinkOperations): void {
  handle(app, LIST, async (c, input) => c.json(await links.list(c.get('caller'), canvasRef(input.params()))));
  handle(app, CREATE, async (c, input) => {
    const ref = canvasRef(input.params());
    return c.json(await links.create(c.get('caller'), ref, await input.body()), 201);
  });
  handle(app, REVOKE, async (c, input) => {
    const params = input.params();
    await links.revoke(c.get('caller'), canvasRef(params), params.share_id);
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
  handle(app, OPEN, async (c, input) => {
    const { secret } = input.params();
    await take(perAddress, c.env.incoming?.socket.remoteAddress ?? 'unknown');
    await take(perLink, sha256Hex(secret));
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    return c.json(await links.open(secret));
  });
}
