/**
 * Where JSON text holds an asset's path: a field named for a URL (a run output's `url`, a node's `imageUrl`,
 * `fileUrl`, `previewImageUrl`…) whose value is `/assets/<asset_id>`, signed or not, and each item of a shot's
 * `earlierPictures`. Only such fields: a prompt or
 * note that quotes a path stays as written. Shared by signing (backend: every URL field) and making paths absolute
 * (MCP: run outputs' `url` only, so node data an agent copies into another node keeps a path this server signs again
 * on every read, never an absolute URL that expires).
 */
const ASSET_URL_FIELD =
  /"(url|[A-Za-z0-9]*Url)":"(\/assets\/(asset_[A-Za-z0-9_-]{16})(?:\?exp=\d+&sig=[A-Za-z0-9_-]+)?)"/g;
const OUTPUT_URL_FIELD = /"(url)":"(\/assets\/(asset_[A-Za-z0-9_-]{16})(?:\?exp=\d+&sig=[A-Za-z0-9_-]+)?)"/g;
/** A list of pictures a shot showed before (`earlierPictures`): each item an asset path like a URL field's value. */
const URL_LIST_FIELD = /"(earlierPictures)":\[([^\]]*)\]/g;
const ASSET_URL_ITEM = /"(\/assets\/(asset_[A-Za-z0-9_-]{16})(?:\?exp=\d+&sig=[A-Za-z0-9_-]+)?)"/g;

/** A cheap first look: false means the text holds no asset path in any field. */
export function mayHoldAssetUrl(json: string): boolean {
  return json.includes('"/assets/asset_');
}

/**
 * The text with each asset URL field's value replaced by `value(path, assetId)` (JSON-encoded here); `fields: 'url'`
 * touches only fields named `url` (run outputs).
 */
export function replaceAssetUrls(
  json: string,
  value: (path: string, assetId: string) => string,
  fields: 'every' | 'url' = 'every',
): string {
  if (!mayHoldAssetUrl(json)) return json;
  const replaced = json.replace(
    fields === 'url' ? OUTPUT_URL_FIELD : ASSET_URL_FIELD,
    (_match, field: string, path: string, assetId: string) => `"${field}":${JSON.stringify(value(path, assetId))}`,
  );
  if (fields === 'url') return replaced;
  return replaced.replace(
    URL_LIST_FIELD,
    (_match, field: string, items: string) =>
      `"${field}":[${items.replace(ASSET_URL_ITEM, (_item, path: string, assetId: string) => JSON.stringify(value(path, assetId)))}]`,
  );
}
