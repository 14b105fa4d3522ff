import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { isAllowedType } from './media-types.js';
import type { AssetLocation } from './asset-store.js';
import type { Assets } from './assets.js';
import { thumbnailOf } from './uploads/image-intake.js';
import { ID_PREFIX } from '../shared/ids.js';
import type { Store } from '../store/store.js';
import { insertDerivedAssetRecord, type AssetRecord } from '../store/asset-records.js';

/**
 * Thumbnails of image results: made lazily, on the first request for one (the thumbnail route, the board picture), from
 * the asset's bytes with the uploads' own pipeline (src/assets/uploads/image-intake.ts), and kept as an asset of their
 * own so they are made once. Lazy rather than at the end of a run: the run engine stays as it is, results made before
 * this existed get thumbnails too, and a picture no one looks at costs nothing.
 *
 * A thumbnail's id is derived from its source's (`thumbnailIdOf`), so finding it is one row read and two servers that
 * make it at once write the same bytes under the same key and the same row (the second insert does nothing).
 */

export const RESULT_THUMBNAIL_EDGE = 480;
/** sharp's own default: a picture larger than this is not decoded for a thumbnail. */
const MAX_SOURCE_PIXELS = 268_402_689;
const THUMBNAIL_TYPE = 'image/webp';

export interface Thumbnail {
  assetId: string;
  mimeType: string;
  bytes: Buffer;
}

export interface Thumbnails {
  /** The thumbnail of a picture (made now if it has none yet); null when the asset is not a picture or is gone. */
  of(asset: AssetRecord): Promise<Thumbnail | null>;
}

/** The id of an asset's thumbnail: `asset_` and 16 characters of a hash of the source's id. */
export function thumbnailIdOf(assetId: string): string {
  return `${ID_PREFIX.asset}${createHash('sha256').update(`thumbnail:${assetId}`).digest('base64url').slice(0, 16)}`;
}

export function createThumbnails(options: { store: Store; assets: Assets; clock?: () => number }): Thumbnails {
  const { store, assets } = options;
  const clock = options.clock ?? Date.now;
  // One making of each thumbnail at a time in this process: a board of 200 cards asks for each once.
  const making = new Map<string, Promise<Thumbnail | null>>();

  const bytesOf = (location: AssetLocation) => assets.bytesOf(location);

  async function make(asset: AssetRecord): Promise<Thumbnail | null> {
    const id = thumbnailIdOf(asset.assetId);
    const kept = await store.assets.getAsset(id);
    if (kept) {
      const bytes = await bytesOf(kept);
      if (bytes) return { assetId: id, mimeType: kept.mimeType, bytes };
    }
    const source = await bytesOf(asset);
    if (!source) return null;
    let bytes: Buffer;
    try {
      bytes = await (await thumbnailOf(source, MAX_SOURCE_PIXELS, RESULT_THUMBNAIL_EDGE)).toBuffer();
    } catch {
      // A picture sharp cannot read (damaged, cut short): no thumbnail; the caller shows the placeholder.
      return null;
    }
    const key = await assets.writer.put(id, Readable.from([bytes]), bytes.length);
    await insertDerivedAssetRecord(
      store.driver,
      {
        id,
        projectId: asset.projectId,
        canvasId: asset.canvasId,
        kind: 'image',
        mimeType: THUMBNAIL_TYPE,
        byteSize: bytes.length,
        storage: assets.writer.storage,
        storageKey: assets.writer.storage === 'local' ? null : key,
        derivedFrom: asset.assetId,
      },
      clock(),
    );
    return { assetId: id, mimeType: THUMBNAIL_TYPE, bytes };
  }

  return {
    of(asset) {
      if (asset.kind !== 'image' || !isAllowedType('image', asset.mimeType)) return Promise.resolve(null);
      const pending = making.get(asset.assetId);
      if (pending) return pending;
      const work = make(asset).finally(() => making.delete(asset.assetId));
      making.set(asset.assetId, work);
      return work;
    },
  };
}
