/**
 * Run outputs are served at a stable path (`/assets/<asset_id>`), which the backend signs for whoever may read it
 * (src/assets/url-signing.ts). Asset ids are random (96 bits). Where the bytes live: src/assets/.
 */
export { ASSET_ID } from '../assets/asset-store.js';

export function assetUrl(assetId: string): string {
  return `/assets/${assetId}`;
}
