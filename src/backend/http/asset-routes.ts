import type { Hono } from 'hono';
import { ASSET_ID, type AssetFiles } from '../../runs/asset-files.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import type { BackendHttpEnv } from './http-env.js';

/**
 * GET /assets/{asset_id}: the files node runs produce, at a stable URL. Asset ids carry 96 random bits, so the URL
 * works as a capability (an <img src> in a viewer cannot send a bearer token); docs/runs.md.
 */
export function registerAssetRoutes(app: Hono<BackendHttpEnv>, store: Store, assets: AssetFiles): void {
  app.get('/assets/:asset_id', async (c) => {
    const assetId = c.req.param('asset_id');
    const asset = ASSET_ID.test(assetId) ? await store.claims.getAsset(assetId) : undefined;
    if (!asset) throw new CanvasError('not_found', 'No such asset (it may still be pending).');
    const bytes = await assets.read(asset.id).catch(() => {
      throw new CanvasError('not_found', 'The asset file is missing from this server\'s data dir.');
    });
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': asset.mimeType,
      'content-length': String(bytes.length),
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
  });
}
