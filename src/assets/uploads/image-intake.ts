import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sharp } from 'sharp';
import { loadSharp } from '../../shared/sharp.js';
import { UploadRefused, type PreparedFile, type PreparedUpload } from './prepared.js';

/**
 * A picture as it is kept: decoded with a pixel limit checked from its header before any decoding (no decompression
 * bomb), turned upright from its EXIF orientation, and encoded again in its own format without its metadata (GPS,
 * camera, EXIF: sharp keeps none unless asked), which also drops whatever else rode along in the file (a polyglot's
 * script). A 640-pixel WebP thumbnail is made beside it.
 */

export const THUMBNAIL_EDGE = 640;

/**
 * A picture's thumbnail: its first frame, upright, at most `edge` pixels long, as WebP. Uploads make one at 640 pixels;
 * run results get one of 480 on first request (src/assets/thumbnails.ts).
 */
export async function thumbnailOf(source: string | Buffer, maxPixels: number, edge = THUMBNAIL_EDGE): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(source, { limitInputPixels: maxPixels, failOn: 'truncated', pages: 1 })
    .autoOrient()
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 });
}

const ANIMATED = new Set(['image/gif', 'image/webp']);

export async function prepareImage(
  source: string,
  mimeType: string,
  workDir: string,
  maxPixels: number,
): Promise<PreparedUpload> {
  const sharp = await loadSharp();
  const header = await sharp(source, { limitInputPixels: false })
    .metadata()
    .catch((error: Error) => {
      throw damaged(error);
    });
  const width = header.width ?? 0;
  const height = header.height ?? 0;
  const pages = header.pages ?? 1;
  if (width * height * pages > maxPixels)
    throw new UploadRefused(
      'limit_exceeded',
      `The picture is ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels${pages > 1 ? ` in ${pages} frames` : ''}; uploads take pictures of at most ${maxPixels.toLocaleString('en')} pixels.`,
      { width, height, max_pixels: maxPixels },
    );
  const animated = ANIMATED.has(mimeType) && pages > 1;
  const open = () =>
    sharp(source, { limitInputPixels: maxPixels, failOn: 'truncated', animated, sequentialRead: true }).autoOrient();
  const mainPath = join(workDir, `picture.${EXTENSION[mimeType] ?? 'img'}`);
  const main = await reencode(open(), mimeType)
    .toFile(mainPath)
    .catch((error: Error) => {
      throw damaged(error);
    });
  const thumbnailPath = join(workDir, 'thumbnail.webp');
  await (await thumbnailOf(source, maxPixels)).toFile(thumbnailPath).catch((error: Error) => {
    throw damaged(error);
  });
  return {
    mediaKind: 'image',
    main: { path: mainPath, mimeType, byteSize: main.size },
    thumbnail: await fileOf(thumbnailPath, 'image/webp'),
    width: main.width,
    // An animation's height is that of one frame.
    height: animated ? Math.round(main.height / pages) : main.height,
    durationMs: null,
  };
}

const EXTENSION: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

function reencode(image: Sharp, mimeType: string): Sharp {
  switch (mimeType) {
    case 'image/jpeg':
      // libjpeg-turbo: mozjpeg's smaller files cost 25× the time (12 s for a 24-megapixel photo; docs/performance.md).
      return image.jpeg({ quality: 92 });
    case 'image/png':
      return image.png({ compressionLevel: 6 });
    case 'image/webp':
      return image.webp({ quality: 92 });
    case 'image/gif':
      return image.gif();
    default:
      return image.avif({ quality: 70 });
  }
}

async function fileOf(path: string, mimeType: string): Promise<PreparedFile> {
  return { path, mimeType, byteSize: (await stat(path)).size };
}

function damaged(error: Error): UploadRefused {
  // libvips' words ("VipsJpeg: Premature end of input file") say what broke; paths never appear in them.
  const reason = error.message
    .split('\n')[0]!
    .replace(/^Input file /, '')
    .slice(0, 200);
  return new UploadRefused(
    'invalid_arguments',
    `The picture could not be read: it is damaged or cut short (${reason}).`,
    {
      reason,
    },
  );
}
