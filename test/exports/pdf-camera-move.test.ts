import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfBoardOptions } from '../../src/contract/exports.js';
import { CameraMove } from '../../src/contract/shots.js';
import type { ExportBoard } from '../../src/exports/export-board.js';
import { oneShotBoard } from '../support/export-boards.js';
import { MOVE_COLOUR } from '../../src/exports/pdf/camera-move-marks.js';
import { pdfBoard } from '../../src/exports/pdf/pdf-board.js';

/**
 * Camera moves in the PDF storyboard (src/exports/pdf/camera-move-marks.ts), read back with pdfjs as the vector paths
 * the page draws: the end framing's rectangle at its fractions of the shot's frame, and arrows from the start framing
 * to the end (one from centre to centre for a pan, one per corner for a push), over the picture; a shot with no move
 * has none of them.
 */

let dir = '';
let picture = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pdf-move-'));
  picture = path.join(dir, 'wide.png');
  await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#336699' } }).toFile(picture);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const board = (move: CameraMove | null): ExportBoard => oneShotBoard(picture, 16 / 9, { move });

type Box = { x: number; y: number; width: number; height: number };
interface Drawn {
  index: number;
  colour: string;
  filled: boolean;
  box: Box;
  /** The path's first point (a shaft's start). */
  first: [number, number];
}

/** The stroked and filled paths of page 1 with their colour, bounding box and first point. */
async function paths(bytes: Buffer): Promise<{ drawn: Drawn[]; imageAt: number }> {
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const { fnArray, argsArray } = await (await pdf.getPage(1)).getOperatorList();
  const drawn: Drawn[] = [];
  let stroke = '';
  let fill = '';
  let imageAt = -1;
  fnArray.forEach((fn, index) => {
    const args = argsArray[index] as unknown[];
    if (fn === OPS.setStrokeRGBColor) stroke = String(args[0]);
    if (fn === OPS.setFillRGBColor) fill = String(args[0]);
    if (fn === OPS.paintImageXObject) imageAt = index;
    if (fn !== OPS.constructPath) return;
    const filled = args[0] === OPS.fill || args[0] === OPS.eoFill;
    if (args[0] !== OPS.stroke && !filled) return;
    const [minX, minY, maxX, maxY] = Array.from(args[2] as ArrayLike<number>);
    // The path's data: an opcode, then its coordinates; a path starting with moveTo has its first point next.
    const data = Array.from((args[1] as ArrayLike<ArrayLike<number>>)[0] ?? []);
    drawn.push({
      index,
      colour: filled ? fill : stroke,
      filled,
      box: { x: minX!, y: minY!, width: maxX! - minX!, height: maxY! - minY! },
      first: [data[1] ?? NaN, data[2] ?? NaN],
    });
  });
  return { drawn, imageAt };
}

const render = async (move: CameraMove | null) =>
  paths((await pdfBoard(board(move), PdfBoardOptions.parse({ columns: 2, rows: 1 }), null, () => {})).bytes);

const within = 0.05;
const frameOf = (drawn: Drawn[]) => drawn.find((each) => each.colour === '#9a9a9a' && !each.filled)!.box;
const onFrame = (frame: Box, x: number, y: number) => [frame.x + x * frame.width, frame.y + y * frame.height];

describe('a camera move in the PDF storyboard', () => {
  it('marks a pan with its end framing and one arrow from the start framing’s centre to the end’s', async () => {
    const pan = CameraMove.parse({
      start: { x: 0, y: 0.1, width: 0.8, height: 0.8 },
      end: { x: 0.2, y: 0.1, width: 0.8, height: 0.8 },
    });
    const { drawn, imageAt } = await render(pan);
    const frame = frameOf(drawn);
    const marks = drawn.filter((each) => each.colour === MOVE_COLOUR);
    for (const mark of marks) expect(mark.index).toBeGreaterThan(imageAt);
    const [rect, shaft, ...rest] = marks;
    expect(Math.abs(rect!.box.x - (frame.x + 0.2 * frame.width))).toBeLessThan(within);
    expect(Math.abs(rect!.box.y - (frame.y + 0.1 * frame.height))).toBeLessThan(within);
    expect(Math.abs(rect!.box.width - 0.8 * frame.width)).toBeLessThan(within);
    expect(Math.abs(rect!.box.height - 0.8 * frame.height)).toBeLessThan(within);
    const [fromX, fromY] = onFrame(frame, 0.4, 0.5);
    const [toX, toY] = onFrame(frame, 0.6, 0.5);
    expect(shaft!.filled).toBe(false);
    expect(Math.abs(shaft!.first[0] - fromX!)).toBeLessThan(within);
    expect(Math.abs(shaft!.first[1] - fromY!)).toBeLessThan(within);
    // The head is filled, its tip at the end framing's centre.
    expect(rest).toHaveLength(1);
    const head = rest[0]!;
    expect(head.filled).toBe(true);
    expect(Math.abs(head.box.x + head.box.width - toX!)).toBeLessThan(within);
    expect(head.box.y).toBeLessThan(toY!);
    expect(head.box.y + head.box.height).toBeGreaterThan(toY!);
  });

  it('marks a push from wide to close with an arrow from each corner of the picture to the close framing’s', async () => {
    const push = CameraMove.parse({
      start: { x: 0, y: 0, width: 1, height: 1 },
      end: { x: 0.25, y: 0.25, width: 0.5, height: 0.5 },
    });
    const { drawn } = await render(push);
    const frame = frameOf(drawn);
    const marks = drawn.filter((each) => each.colour === MOVE_COLOUR);
    const shafts = marks.slice(1).filter((each) => !each.filled);
    expect(marks.filter((each) => each.filled)).toHaveLength(4);
    expect(shafts).toHaveLength(4);
    const starts = shafts.map((shaft) => [
      Math.round((shaft.first[0] - frame.x) / frame.width),
      Math.round((shaft.first[1] - frame.y) / frame.height),
    ]);
    expect(starts).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]);
    expect(Math.abs(marks[0]!.box.width - 0.5 * frame.width)).toBeLessThan(within);
  });

  it('draws no move on a shot without one', async () => {
    const { drawn } = await render(null);
    expect(drawn.some((each) => each.colour === '#9a9a9a')).toBe(true);
    expect(drawn.filter((each) => each.colour === MOVE_COLOUR)).toEqual([]);
  });
});
