import type { Sharp } from 'sharp';
import { loadSharp } from '../../shared/sharp.js';

/**
 * Pictures made small enough for a PDF: a shot's picture can be a 22 MB camera photo, and a board of 200 of them
 * must neither weigh gigabytes nor hold every decoded picture in memory. Each one is decoded, turned upright (EXIF),
 * scaled to the box it prints in and re-encoded as JPEG, one at a time, just before it is drawn.
 */

/** Print resolution: 220 pixels an inch is sharp on paper; a panel never needs more. */
const PIXELS_PER_POINT = 220 / 72;
/** The long edge's ceiling, for the largest boxes (one shot a page). */
const MAX_EDGE = 1600;
const JPEG_QUALITY = 82;
/** sharp's own ceiling on a picture's pixels (16384 × 16384), against decompression bombs. */
const MAX_INPUT_PIXELS = 268_402_689;

export interface PreparedPicture {
  bytes: Buffer;
  /** Pixels, for placing the picture in its box without stretching it. */
  width: number;
  height: number;
}

/** The pixel size of a box of points, capped at MAX_EDGE on its long edge. */
function pixelBox(widthPt: number, heightPt: number): { width: number; height: number } {
  const scale = Math.min(PIXELS_PER_POINT, MAX_EDGE / Math.max(widthPt, heightPt));
  return { width: Math.max(1, Math.round(widthPt * scale)), height: Math.max(1, Math.round(heightPt * scale)) };
}

/**
 * A picture file decoded, turned upright (EXIF), fitted inside a box of points (never enlarged, never stretched), its
 * transparency flattened on white, in 8-bit sRGB, then encoded; null when the file cannot be read as a picture.
 */
async function fittedInBox(
  file: string,
  widthPt: number,
  heightPt: number,
  encode: (picture: Sharp) => Sharp,
): Promise<PreparedPicture | null> {
  const box = pixelBox(widthPt, heightPt);
  const sharp = await loadSharp();
  try {
    const fitted = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1 })
      .rotate()
      .resize({ ...box, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      // 8-bit sRGB: pdfkit's PNG reader takes 8-bit pictures (a 16-bit one would not print).
      .toColourspace('srgb');
    const { data, info } = await encode(fitted).toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}

/** A picture file as a JPEG that fits inside a box of points; null when the file cannot be read as a picture. */
export function pictureForBox(file: string, widthPt: number, heightPt: number): Promise<PreparedPicture | null> {
  return fittedInBox(file, widthPt, heightPt, (fitted) => fitted.jpeg({ quality: JPEG_QUALITY }));
}

/**
 * A logo for the page header: PNG scaled to the header's box, its transparency flattened on the page's white. pdfkit
 * splits an alpha channel with an asynchronous deflate, which writes the image's objects in an order that depends on
 * timing: the same board would not always give the same bytes.
 */
export function logoForBox(file: string, widthPt: number, heightPt: number): Promise<PreparedPicture | null> {
  return fittedInBox(file, widthPt, heightPt, (fitted) => fitted.png());
}

/**
 * A picture file drawn fitted in a box (letterboxed on a light fill, never stretched); false, with nothing drawn, when
 * the file cannot be read as a picture.
 */
export async function drawFittedPicture(
  doc: PDFKit.PDFDocument,
  file: string,
  box: { x: number; y: number; width: number; height: number },
): Promise<boolean> {
  const picture = await pictureForBox(file, box.width, box.height);
  if (!picture) return false;
  doc.rect(box.x, box.y, box.width, box.height).fill('#f1f1f1');
  doc.image(picture.bytes, box.x, box.y, { fit: [box.width, box.height], align: 'center', valign: 'center' });
  return true;
}
