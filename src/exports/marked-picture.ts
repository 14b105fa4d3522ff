import { renderAsync } from '@resvg/resvg-js';
import { loadSharp } from '../shared/sharp.js';
import type { ShotMark } from '../contract/index.js';
import { drawingSvg } from '../shared/drawing-svg.js';
import { svgFonts } from './pdf/fonts.js';

/**
 * A shot's picture with its notes-layer marks drawn over it (docs/drawing.md, "Marks"), at the board's frame shape: what
 * the PDF, the animatic and the editor's timelines show of a shot an agent marked with a camera arrow. The marks are
 * kept on the shot, not in its picture, so they are drawn here, from the same shapes the board and the editor draw.
 */
export async function markedPicture(
  picture: Buffer | null,
  marks: readonly ShotMark[],
  aspect: number,
  width = 1920,
): Promise<Buffer> {
  const height = Math.round(width / aspect);
  let under: string | null = null;
  if (picture) {
    const sharp = await loadSharp();
    const jpeg = await sharp(picture, { pages: 1 })
      .resize({ width, height, fit: 'cover' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90 })
      .toBuffer();
    under = `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  }
  const svg = drawingSvg(null, { width, height, pictureUnder: under, marks });
  const rendered = await renderAsync(svg, {
    font: svgFonts(),
    fitTo: { mode: 'width', value: width },
    logLevel: 'off',
  });
  return rendered.asPng();
}
