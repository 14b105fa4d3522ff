import { loadSharp } from '../shared/sharp.js';
import type { SceneCard } from './board-scene.js';

/**
 * The pictures a board picture embeds: each card's picture as a small JPEG data URI, at the size it is drawn (never
 * larger than its thumbnail), made from the asset's thumbnail (src/assets/thumbnails.ts), not from its original. A card
 * drawn smaller than a few pixels gets none: its placeholder colour says as much.
 */

const SMALLEST_PX = 12;
const CONCURRENCY = 4;

/** The thumbnail's bytes of an asset of the board's project; null when there is none to show. */
export type ThumbnailSource = (assetId: string) => Promise<Buffer | null>;

/** The pixel size each picture is drawn at (the largest, when several cards show it). */
export function pictureSizes(
  cards: readonly SceneCard[],
  scale: number,
): Map<string, { width: number; height: number }> {
  const sizes = new Map<string, { width: number; height: number }>();
  for (const card of cards) {
    if (!card.picture) continue;
    const width = Math.round(card.width * scale);
    const height = Math.round(card.height * scale);
    if (width < SMALLEST_PX || height < SMALLEST_PX) continue;
    const known = sizes.get(card.picture);
    sizes.set(card.picture, {
      width: Math.max(width, known?.width ?? 0),
      height: Math.max(height, known?.height ?? 0),
    });
  }
  return sizes;
}

async function dataUri(bytes: Buffer, size: { width: number; height: number }): Promise<string> {
  const sharp = await loadSharp();
  const jpeg = await sharp(bytes, { pages: 1 })
    .resize({ width: size.width, height: size.height, fit: 'cover', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 72 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/** Data URIs by asset id, for the pictures that could be read (a few at a time). */
export async function pictureUris(
  sizes: ReadonlyMap<string, { width: number; height: number }>,
  thumbnail: ThumbnailSource,
): Promise<Map<string, string>> {
  const uris = new Map<string, string>();
  const queue = [...sizes];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [assetId, size] = next;
      const bytes = await thumbnail(assetId);
      if (!bytes) continue;
      try {
        uris.set(assetId, await dataUri(bytes, size));
      } catch {
        // A thumbnail sharp cannot read: the card shows its placeholder.
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return uris;
}
