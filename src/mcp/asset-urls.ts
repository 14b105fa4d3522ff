import { mayHoldAssetUrl, replaceAssetUrls } from '../assets/asset-url-fields.js';
import { cachedPayload, joinPayload, type JsonPayload } from '../shared/json-payload.js';

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
  // A payload is rewritten leaf by leaf: a cached canvas document's leaves are the same objects on every read, so
  // each is rewritten (or found to hold no asset path) once, not per call, whatever small members a read adds. An
  // asset path sits inside one string value, and leaves split only between members, so no path spans two leaves.
  const rewritten = new WeakMap<JsonPayload, JsonPayload>();
  function leafAbsolute(leaf: JsonPayload, prefix: string): JsonPayload {
    const known = rewritten.get(leaf);
    if (known) return known;
    const { json } = leaf;
    const result = mayHoldAssetUrl(json) ? cachedPayload(replaceAssetUrls(json, (path) => prefix + path, 'url')) : leaf;
    rewritten.set(leaf, result);
    return result;
  }
  return {
    absolute(payload) {
      const prefix = base();
      if (prefix === '') return payload;
      const { leaves } = payload;
      const absolute = leaves.map((leaf) => leafAbsolute(leaf, prefix));
      return absolute.every((leaf, index) => leaf === leaves[index]) ? payload : joinPayload(absolute);
    },
    resolve(url) {
      return url.startsWith('/') ? `${base()}${url}` : url;
    },
  };
}
