import { renderAsync } from '@resvg/resvg-js';
import { loadSharp, type SharpFactory } from '../shared/sharp.js';
import { svgFonts } from '../exports/pdf/fonts.js';
import type { BoardFormat } from '../shared/board-target.js';

/**
 * SVG to PNG or WebP within a budget, without a browser: resvg draws it (off the event loop) with the fonts the PDF
 * exports use, never the machine's, so the same board draws the same everywhere. When the file is over the byte budget,
 * the quality is lowered first (a palette PNG, a lower WebP quality), then the size, until it fits.
 */

/** What vision models take without scaling it down themselves (Anthropic's guidance: 1,568 px on the long edge). */
export const MAX_EDGE = 1568;
export const MAX_BYTES = 1_000_000;
const SMALLEST_EDGE = 200;

export const MIME_TYPES: Record<BoardFormat, string> = { png: 'image/png', webp: 'image/webp' };

async function draw(svg: string, width: number): Promise<Buffer> {
  const rendered = await renderAsync(svg, {
    font: svgFonts(),
    fitTo: { mode: 'width', value: width },
    logLevel: 'off',
  });
  return rendered.asPng();
}

/** The smaller versions of one drawing to try, best first. */
function encodings(format: BoardFormat, sharp: SharpFactory): Array<(png: Buffer) => Promise<Buffer>> {
  if (format === 'webp')
    return [82, 68, 52, 36].map((quality) => (png: Buffer) => sharp(png).webp({ quality, effort: 3 }).toBuffer());
  return [
    async (png) => png,
    (png) => sharp(png).png({ palette: true, quality: 90, compressionLevel: 9, effort: 4 }).toBuffer(),
    (png) => sharp(png).png({ palette: true, quality: 60, colours: 128, compressionLevel: 9, effort: 4 }).toBuffer(),
  ];
}

/** The SVG drawn `width` pixels wide (its height follows), as `format`, within `maxBytes`. */
export async function rasterise(
  svg: string,
  options: { format: BoardFormat; width: number; maxBytes?: number },
): Promise<{ bytes: Buffer; width: number }> {
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  let width = Math.max(1, Math.round(options.width));
  for (;;) {
    const png = await draw(svg, width);
    let smallest: Buffer | null = null;
    for (const encode of encodings(options.format, await loadSharp())) {
      const bytes = await encode(png);
      if (bytes.length <= maxBytes) return { bytes, width };
      if (!smallest || bytes.length < smallest.length) smallest = bytes;
    }
    if (width <= SMALLEST_EDGE) return { bytes: smallest!, width };
    width = Math.max(SMALLEST_EDGE, Math.round(width * 0.8));
  }
}
