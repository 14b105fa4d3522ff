import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { markedPicture } from '../../src/exports/marked-picture.js';
import { png } from '../support/upload-fixtures.js';

/**
 * What every export shows of a marked shot: its picture at the board's frame shape with the marks an agent or a person
 * added drawn over it, read back pixel by pixel.
 */

async function pixel(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(y * (info.height - 1)) * info.width + Math.round(x * (info.width - 1))) * 3;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

describe('a marked shot picture', () => {
  it('draws a red camera arrow over the picture, cropped to the board frame shape', async () => {
    const bytes = await markedPicture(
      await png(400, 400),
      [{ tool: 'arrow', colour: '#dc2626', points: [0.1, 0.5, 0.9, 0.5], text: 'Push in' }],
      16 / 9,
      640,
    );
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([640, 360]);
    const [red, green, blue] = await pixel(bytes, 0.5, 0.5);
    expect(red).toBeGreaterThan(180);
    expect(Math.max(green!, blue!)).toBeLessThan(90);
    // Away from the arrow, the picture's blue (20, 90, 200).
    const away = await pixel(bytes, 0.5, 0.15);
    expect(away[2]).toBeGreaterThan(150);
  });

  it('draws marks on white paper for a shot with no picture', async () => {
    const bytes = await markedPicture(
      null,
      [{ tool: 'rect', colour: '#2563eb', points: [0.2, 0.2, 0.8, 0.8] }],
      2.39,
      478,
    );
    expect((await pixel(bytes, 0.5, 0.5)).every((value) => value > 240)).toBe(true);
    const edge = await pixel(bytes, 0.2, 0.5);
    expect(edge[2]).toBeGreaterThan(150);
    expect(edge[0]).toBeLessThan(120);
  });
});
