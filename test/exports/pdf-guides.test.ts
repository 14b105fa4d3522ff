import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfBoardOptions } from '../../src/contract/exports.js';
import type { ExportBoard } from '../../src/exports/export-board.js';
import { oneShotBoard } from '../support/export-boards.js';
import { pdfBoard } from '../../src/exports/pdf/pdf-board.js';

/**
 * Framing guides in the PDF storyboard (src/exports/pdf/guides.ts): read back with pdfjs as the vector paths the page
 * draws, each guide is at its fraction of the shot's frame (the frame's own stroked rectangle on the page), over the
 * picture; without the option nothing of them is drawn.
 */

let dir = '';
let picture = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pdf-guides-'));
  picture = path.join(dir, 'wide.png');
  await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#336699' } }).toFile(picture);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const board = (aspect: number): ExportBoard => oneShotBoard(picture, aspect);

interface Path {
  index: number;
  colour: string;
  box: { x: number; y: number; width: number; height: number };
}

/** The stroked paths of page 1, each with its stroke colour and bounding box (PDFKit's top-left page space). */
async function strokedPaths(bytes: Buffer): Promise<{ paths: Path[]; imageAt: number }> {
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const { fnArray, argsArray } = await (await pdf.getPage(1)).getOperatorList();
  const paths: Path[] = [];
  let colour = '';
  let imageAt = -1;
  fnArray.forEach((fn, index) => {
    const args = argsArray[index] as unknown[];
    if (fn === OPS.setStrokeRGBColor) colour = String(args[0]);
    if (fn === OPS.paintImageXObject) imageAt = index;
    if (fn === OPS.constructPath && args[0] === OPS.stroke) {
      const [minX, minY, maxX, maxY] = Array.from(args[2] as ArrayLike<number>);
      paths.push({ index, colour, box: { x: minX!, y: minY!, width: maxX! - minX!, height: maxY! - minY! } });
    }
  });
  return { paths, imageAt };
}

const render = async (aspect: number, guides: PdfBoardOptions['guides']) =>
  (await pdfBoard(board(aspect), PdfBoardOptions.parse({ columns: 2, rows: 1, guides }), null, () => {})).bytes;

describe('guides in the PDF storyboard', () => {
  for (const [label, aspect] of [
    ['16:9', 16 / 9],
    ['2.39:1', 2.39],
  ] as const) {
    it(`draws title safe 5 % in, action safe 3.5 % in and the 9:16 crop over the picture of a ${label} frame`, async () => {
      const { paths, imageAt } = await strokedPaths(await render(aspect, ['actionSafe', 'titleSafe', 'crop9x16']));
      const frame = paths.find((each) => each.colour === '#9a9a9a')!.box;
      expect(frame.width / frame.height).toBeCloseTo(aspect, 2);
      const safe = paths.filter((each) => each.colour === '#0891b2');
      const crop = paths.filter((each) => each.colour === '#d97706');
      expect(safe).toHaveLength(2);
      expect(crop).toHaveLength(1);
      // Over the picture: drawn after it.
      expect(imageAt).toBeGreaterThan(0);
      for (const each of [...safe, ...crop]) expect(each.index).toBeGreaterThan(imageAt);

      const [action, title] = safe.map((each) => each.box);
      const within = 0.02;
      expect(Math.abs(title!.x - (frame.x + frame.width * 0.05))).toBeLessThan(within);
      expect(Math.abs(title!.y - (frame.y + frame.height * 0.05))).toBeLessThan(within);
      expect(Math.abs(title!.width - frame.width * 0.9)).toBeLessThan(within);
      expect(Math.abs(title!.height - frame.height * 0.9)).toBeLessThan(within);
      expect(Math.abs(action!.x - (frame.x + frame.width * 0.035))).toBeLessThan(within);
      expect(Math.abs(action!.height - frame.height * 0.93)).toBeLessThan(within);

      const vertical = crop[0]!.box;
      expect(vertical.width / frame.width).toBeCloseTo(9 / 16 / aspect, 3);
      expect(Math.abs(vertical.height - frame.height)).toBeLessThan(within);
      expect(vertical.x + vertical.width / 2).toBeCloseTo(frame.x + frame.width / 2, 1);
    });
  }

  it('draws thirds as lines at a third and two thirds of the frame', async () => {
    const { paths } = await strokedPaths(await render(16 / 9, ['thirds']));
    const frame = paths.find((each) => each.colour === '#9a9a9a')!.box;
    const lines = paths.filter((each) => each.colour === '#0891b2').map((each) => each.box);
    expect(lines).toHaveLength(4);
    const uprights = lines.filter((line) => line.width < 0.01).map((line) => (line.x - frame.x) / frame.width);
    const acrosses = lines.filter((line) => line.height < 0.01).map((line) => (line.y - frame.y) / frame.height);
    expect(uprights.map((at) => at.toFixed(4))).toEqual(['0.3333', '0.6667']);
    expect(acrosses.map((at) => at.toFixed(4))).toEqual(['0.3333', '0.6667']);
  });

  it('draws no guide by default', async () => {
    const { paths } = await strokedPaths(
      (await pdfBoard(board(16 / 9), PdfBoardOptions.parse({}), null, () => {})).bytes,
    );
    expect(paths.some((each) => each.colour === '#9a9a9a')).toBe(true);
    expect(paths.filter((each) => each.colour === '#0891b2' || each.colour === '#d97706')).toEqual([]);
  });
});
