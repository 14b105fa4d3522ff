import { Readable } from 'node:stream';
import type { Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { Assets } from '../../assets/assets.js';
import { ASSET_ID, AssetMissing, type ByteRange } from '../../assets/asset-store.js';
import { isInlineSafe } from '../../assets/media-types.js';
import type { AssetSigner } from '../../assets/url-signing.js';
import type { Thumbnails } from '../../assets/thumbnails.js';
import { readCredentials, signableType } from '../../provenance/c2pa-signer.js';
import { deploymentTrustAnchor } from '../../provenance/credentials.js';
import { credentialsSummary } from '../../provenance/summary.js';
import type { AssetRecord } from '../../store/asset-records.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { authorizeProject } from '../../backend/auth/access.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { SESSION_COOKIE } from '../session-auth.js';
import { apiRoute, handle } from '../route-declaration.js';
import { FileBytes, ok } from '../route-parameters.js';

/**
 * GET /assets/{asset_id}: the files node runs produce (docs/runs.md, "Who may read an asset"). Readable with a signed
 * URL that has not expired (what tool results and run records carry), or by a member of the asset's project (a
 * session, or a token of the REST API). An unsigned guess is 401; a caller without rights gets 404, as for an asset
 * that does not exist. Ranges (audio and video seek) are answered with 206; an asset in S3 is a redirect to a
 * short-lived presigned URL of the object store.
 */

const assetParams = z.object({ asset_id: z.string().regex(ASSET_ID) });
/** An asset's signed URL, described as each route's reader knows it. */
const signedUrl = (expires: string, signature: string) =>
  z.object({
    exp: z.string().regex(/^\d+$/).optional().meta({ description: expires }),
    sig: z.string().optional().meta({ description: signature }),
  });

const ASSET = apiRoute({
  method: 'get',
  path: '/assets/:asset_id',
  operationId: 'getAsset',
  summary:
    'A file a node run produced: with the signed URL results carry, or as a member of its project (docs/runs.md, "Who may read an asset").',
  tag: 'runs',
  auth: 'asset',
  params: assetParams,
  query: signedUrl('A signed URL: when it expires (Unix seconds).', 'A signed URL: its signature.'),
  headers: z.object({
    range: z.string().optional().meta({ description: 'bytes=START-END, bytes=START- or bytes=-SUFFIX.' }),
  }),
  responses: {
    200: { description: 'The file.', content: { 'application/octet-stream': FileBytes } },
    206: {
      description: 'The requested range of the file.',
      content: { 'application/octet-stream': FileBytes },
      headers: { 'content-range': 'bytes START-END/SIZE' },
    },
    302: {
      description: 'An asset kept in S3: a presigned GET of the object store, valid for 5 minutes.',
      headers: { location: 'The presigned URL.' },
    },
    416: { description: 'The range is past the end of the file.', headers: { 'content-range': 'bytes */SIZE' } },
  },
});

const THUMBNAIL = apiRoute({
  method: 'get',
  path: '/assets/:asset_id/thumbnail',
  operationId: 'getAssetThumbnail',
  summary:
    "A picture's thumbnail (at most 480 px, WebP), made on first request and kept: with the picture's own signed URL, or as a member of its project.",
  tag: 'runs',
  auth: 'asset',
  params: assetParams,
  query: signedUrl("The picture's signed URL: when it expires.", "The picture's signed URL: its signature."),
  responses: { 200: { description: 'The thumbnail.', content: { 'image/webp': FileBytes } } },
});

const CREDENTIALS = apiRoute({
  method: 'get',
  path: '/assets/:asset_id/credentials',
  operationId: 'getAssetCredentials',
  summary:
    "What a file's content credentials (C2PA) say, checked under this deployment's own certificate: `credentials: null` with a `reason` when it carries none (docs/provenance.md). With the asset's signed URL, or as a member.",
  tag: 'runs',
  auth: 'asset',
  params: assetParams,
  query: signedUrl("The asset's signed URL: when it expires.", "The asset's signed URL: its signature."),
  responses: { 200: ok('What the credentials say.', z.looseObject({ credentials: z.unknown() })) },
});

export const ASSET_ROUTES = [ASSET, THUMBNAIL, CREDENTIALS];

export interface AssetRouteOptions {
  store: Store;
  assets: Assets;
  signer: AssetSigner;
  /** Runs the API's authentication (session cookie or bearer token), setting the request's caller. */
  authenticate: MiddlewareHandler<BackendHttpEnv>;
  /** Thumbnails of pictures (GET /assets/{asset_id}/thumbnail); none: the route is not served. */
  thumbnails?: Thumbnails;
}

/** Files read whole to check their credentials, at most (a longer film is answered `too_large`). */
const CREDENTIALS_READ_LIMIT = 256 * 1024 * 1024;

/** Every asset answer's policy: nothing in it may load, run or reach anything (a picture or a film still shows). */
export const ASSET_CSP = "default-src 'none'; sandbox";

/** A presigned object-store URL a redirect hands out lives this long. */
const DIRECT_URL_SECONDS = 300;

function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}

async function callerOf(c: BackendContext, authenticate: MiddlewareHandler<BackendHttpEnv>) {
  const hasCookie = (c.req.header('cookie') ?? '').includes(`${SESSION_COOKIE}=`);
  if (c.req.header('authorization') === undefined && !hasCookie) return null;
  await authenticate(c, async () => undefined);
  return c.get('caller') ?? null;
}

/**
 * A download saved under the asset's own name (an export's "Opening storyboard.pdf", an upload's file name): an ASCII
 * fallback for old clients and the exact name in RFC 5987 form; quotes, slashes and control characters never pass.
 */
function attachment(name: string): string {
  const clean =
    [...name]
      .map((char) => (char < ' ' || char === '\u007f' || char === '"' || char === '\\' || char === '/' ? '_' : char))
      .join('')
      .slice(0, 200) || 'download';
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_');
  if (ascii === clean) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}

export function registerAssetRoutes(app: Hono<BackendHttpEnv>, options: AssetRouteOptions): void {
  const { store, assets, signer } = options;
  /**
   * The asset a request may read: with a signed URL that has not expired, or as a member of its project (a session or
   * a token of the REST API). An unsigned guess is 401; a caller without rights gets 404, as for no such asset.
   */
  async function readableAsset(c: BackendContext): Promise<{ asset: AssetRecord; cacheSeconds: number }> {
    // On every answer of these routes, refusals included.
    c.header('x-content-type-options', 'nosniff');
    c.header('content-security-policy', ASSET_CSP);
    const assetId = c.req.param('asset_id') ?? '';
    const asset = ASSET_ID.test(assetId) ? await store.assets.getAsset(assetId) : undefined;
    const exp = c.req.query('exp');
    const sig = c.req.query('sig');
    let cacheSeconds = 300;
    if (exp !== undefined || sig !== undefined) {
      const verdict = signer.verify(assetId, exp, sig);
      if (verdict === 'expired')
        throw new CanvasError(
          'unauthenticated',
          'This asset link has expired: read the canvas or the run again for a fresh one.',
        );
      if (verdict === 'invalid') throw new CanvasError('unauthenticated', 'This asset link is not valid.');
      cacheSeconds = Math.max(0, Number(exp) - Math.floor(Date.now() / 1000));
    } else {
      const caller = await callerOf(c, options.authenticate);
      if (!caller) {
        throw new CanvasError(
          'unauthenticated',
          'Asset files are read with the signed URL a canvas read or a run record gives, or by a member of their project.',
        );
      }
      if (!asset) throw new CanvasError('not_found', 'No such asset (it may still be pending).');
      try {
        await authorizeProject(store, caller, asset.projectId, 'viewer');
      } catch (error) {
        // A caller who may not read the project learns nothing about its assets.
        if (error instanceof CanvasError && error.code === 'forbidden')
          throw new CanvasError('not_found', 'No such asset (it may still be pending).');
        throw error;
      }
    }
    if (!asset) throw new CanvasError('not_found', 'No such asset (it may still be pending).');
    return { asset, cacheSeconds };
  }

  /**
   * GET /assets/{asset_id}/thumbnail: a picture's thumbnail (at most 480 px, WebP), made on the first request and kept
   * as an asset (src/assets/thumbnails.ts). Read with the same signed URL as the picture (the signature is the asset's:
   * whoever may see the picture may see it small) or as a member of its project.
   */
  if (options.thumbnails) {
    const thumbnails = options.thumbnails;
    handle(app, THUMBNAIL, async (c) => {
      const { asset, cacheSeconds } = await readableAsset(c);
      const thumbnail = await thumbnails.of(asset);
      if (!thumbnail) throw new CanvasError('not_found', 'This asset has no thumbnail: it is not a picture.');
      return c.body(new Uint8Array(thumbnail.bytes), 200, {
        'content-type': thumbnail.mimeType,
        'content-length': String(thumbnail.bytes.length),
        'cache-control': `private, max-age=${cacheSeconds}`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': ASSET_CSP,
      });
    });
  }

  /**
   * GET /assets/{asset_id}/credentials: what the file's content credentials say (the canvas shows it as
   * "Content credentials" on a result), checked against this deployment's own certificate as a trust anchor; read
   * with the asset's signed URL or as a member. `credentials: null` with a reason when it carries none.
   */
  handle(app, CREDENTIALS, async (c) => {
    const { asset } = await readableAsset(c);
    c.header('cache-control', 'private, max-age=300');
    if (!signableType(asset.mimeType)) return c.json({ credentials: null, reason: 'unsupported' });
    if (asset.byteSize > CREDENTIALS_READ_LIMIT) return c.json({ credentials: null, reason: 'too_large' });
    const reader = assets.reader(asset.storage);
    if (!reader)
      throw new CanvasError('not_found', `The asset is kept in ${asset.storage} storage, out of reach here.`);
    const chunks: Buffer[] = [];
    for await (const chunk of await reader.open(asset)) chunks.push(chunk as Buffer);
    const found = await readCredentials(Buffer.concat(chunks), asset.mimeType, await deploymentTrustAnchor(store));
    return c.json(found ? { credentials: credentialsSummary(found) } : { credentials: null, reason: 'none' });
  });

  handle(app, ASSET, async (c) => {
    const { asset, cacheSeconds } = await readableAsset(c);
    const reader = assets.reader(asset.storage);
    if (!reader)
      throw new CanvasError(
        'not_found',
        `The asset is kept in ${asset.storage} storage, which this server is not configured to reach.`,
      );

    const inline = isInlineSafe(asset.mimeType);
    const direct = await reader.directUrl(asset, DIRECT_URL_SECONDS, { attachment: !inline });
    if (direct) {
      c.header('cache-control', 'private, no-store');
      return c.redirect(direct, 302);
    }
    const range = parseRange(c.req.header('range'), asset.byteSize);
    if (range === 'unsatisfiable') {
      return c.body(null, 416, { 'content-range': `bytes */${asset.byteSize}` });
    }
    let stream: Readable;
    try {
      stream = await reader.open(asset, range ?? undefined);
    } catch (error) {
      if (error instanceof AssetMissing)
        throw new CanvasError('not_found', `The asset's bytes are missing from its ${asset.storage} storage.`);
      throw error;
    }
    const headers: Record<string, string> = {
      'content-type': asset.mimeType,
      'accept-ranges': 'bytes',
      'cache-control': `private, max-age=${cacheSeconds}`,
      // What is served from this origin never runs here (docs/security.md, "Assets and provider results"): no
      // sniffing, no script, no plugins, and anything that is not a raster picture, a sound or a film is a download.
      'x-content-type-options': 'nosniff',
      'content-security-policy': ASSET_CSP,
      ...(inline ? {} : { 'content-disposition': attachment(asset.fileName ?? asset.assetId) }),
      'content-length': String(range ? range.end - range.start + 1 : asset.byteSize),
      ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${asset.byteSize}` } : {}),
    };
    return new Response(Readable.toWeb(stream) as ReadableStream, { status: range ? 206 : 200, headers });
  });
}
