import { createHmac, timingSafeEqual } from 'node:crypto';
import { replaceAssetUrls } from './asset-url-fields.js';

/**
 * Signed asset URLs (docs/runs.md, "Who may read an asset"): `/assets/<id>?exp=<unix seconds>&sig=<HMAC-SHA256 of
 * "<id>.<exp>">`, readable by whoever holds the URL until it expires, with no other credential (an <img> in an MCP
 * App cannot send one). Everyone else reads an asset with a session or token of its project's members. The key is
 * shared by every server of one store (server_secrets), so a URL one server signed works on any other.
 *
 * Expiries are rounded up to a window, so a cached canvas read signs its URLs once per window, not per call: a URL
 * signed now is valid for at least `ttlSeconds` and at most `ttlSeconds` plus one window.
 */

export interface AssetSigner {
  /** `/assets/<id>?exp=…&sig=…` valid until the current window's expiry. */
  sign(assetId: string): string;
  /** Every URL field holding an asset path, signed (the same text when it holds none). */
  signJson(json: string): string;
  /** The expiry (unix seconds) URLs signed now carry: a cache of signed documents is keyed by it. */
  expiry(): number;
  verify(assetId: string, exp: string | undefined, sig: string | undefined): 'valid' | 'expired' | 'invalid';
}

export function createAssetSigner(secret: string, options: { ttlSeconds: number; clock?: () => number }): AssetSigner {
  const clock = options.clock ?? Date.now;
  const windowSeconds = Math.max(60, Math.min(600, Math.floor(options.ttlSeconds / 6)));
  const mac = (assetId: string, exp: number) =>
    createHmac('sha256', secret).update(`${assetId}.${exp}`).digest('base64url');
  const expiry = () => (Math.floor(clock() / 1000 / windowSeconds) + 1) * windowSeconds + options.ttlSeconds;
  const sign = (assetId: string) => {
    const exp = expiry();
    return `/assets/${assetId}?exp=${exp}&sig=${mac(assetId, exp)}`;
  };
  return {
    sign,
    expiry,
    signJson(json) {
      return replaceAssetUrls(json, (_path, assetId) => sign(assetId));
    },
    verify(assetId, exp, sig) {
      if (exp === undefined || sig === undefined || !/^\d{1,12}$/.test(exp)) return 'invalid';
      const expected = Buffer.from(mac(assetId, Number(exp)));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(exp) * 1000 > clock() ? 'valid' : 'expired';
    },
  };
}
