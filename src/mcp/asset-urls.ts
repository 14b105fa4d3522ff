import { mayHoldAssetUrl, replaceAssetUrls } from '../assets/asset-url-fields.js';
import { cachedPayload, type JsonPayload } from '../shared/json-payload.js';

/**
 * Asset URLs a client can open: the backend stores and serves run outputs at `/assets/<asset_id>`, relative to
 * itself; tool results carry them absolute, under the public URL of the server that serves /assets
 * (docs/architecture.md, "MCP transport"). Only run outputs' `url` fields holding an asset path (signed by the backend)
 * are rewritten (src/assets/asset-url-fields.ts): node data keeps the signed path, and a prompt or note that quotes a
 * path stays as written.
 */

export interface AssetUrls {
  /** The payload with every asset path made absolute; the same payload when it holds none. */
  absolute(payload: JsonPayload): JsonPayload;
  /** An asset path made absolute (absolute URLs pass unchanged). */
  resolve(url: string): string;
}

/** `base` is read on use: the listen address is known only once the server listens. */
export function createAssetUrls(base: () => string): AssetUrls {
  // A cached canvas document is the same payload object on every read: it is rewritten once, not per call.
  const rewritten = new WeakMap<JsonPayload, JsonPayload>();
  return {
    absolute(payload) {
      const prefix = base();
      if (prefix === '') return payload;
      const known = rewritten.get(payload);
      if (known) return known;
      const { json } = payload;
      const result = mayHoldAssetUrl(json)
        ? cachedPayload(replaceAssetUrls(json, (path) => prefix + path, 'url'))
        : payload;
      rewritten.set(payload, result);
      return result;
    },
    resolve(url) {
      return url.startsWith('/') ? `${base()}${url}` : url;
    },
  };
}
