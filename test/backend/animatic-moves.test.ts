import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnimaticOptions } from '../../src/contract/index.js';
import { CameraMove, type Framing } from '../../src/contract/shots.js';
import { renderAnimatic } from '../../src/exports/animatic.js';
import type { ExportBoard, ExportShot } from '../../src/exports/export-board.js';
import { cutFrames } from '../../src/exports/timeline/frame-rate.js';
import { framingAt } from '../../src/shared/camera-move.js';
import { ffmpegPath } from '../../src/shared/media-binaries.js';

/**
 * Camera moves in the animatic, frame by frame: the still is a map of itself (red rises left to right, green top to
 * bottom), so each frame of the film says which part of the picture it shows. A push from the whole picture to a close
 * framing must show the start framing on the shot's first frame and the end framing on its last, and the shots around
 * it keep the whole picture.
 */

const WIDTH = 1280;
const HEIGHT = 720;
/** How far a measured framing may be from the one asked for, in fractions of the picture (a few pixels). */
const TOLERANCE = 0.015;

let dir: string;
let picture: string;
let film: string;

const shot = (id: string, durationMs: number, move: CameraMove | null = null): ExportShot => ({
  id,
  number: id,
  caption: null,
  action: null,
  dialogue: null,
  notes: null,
  camera: null,
  lensMm: null,
  durationMs,
  picture,
  video: null,
  voiceOver: null,
  move,
});

/** A 16:9 still whose red is its x (0 to 255 left to right) and green its y. */
async function mapPicture(): Promise<Buffer> {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y += 1)
    for (let x = 0; x < WIDTH; x += 1) {
      const at = (y * WIDTH + x) * 3;
      pixels[at] = Math.round(((x + 0.5) / WIDTH) * 255);
      pixels[at + 1] = Math.round(((y + 0.5) / HEIGHT) * 255);
    }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .png()
    .toBuffer();
}

/** Frame `index` of the film as RGB pixels. */
function frameAt(index: number): Buffer {
  const { status, stdout, stderr } = spawnSync(
    ffmpegPath(),
    [
      '-v',
      'error',
      '-i',
      film,
      '-vf',
      `select=eq(n\\,${index})`,
      '-vsync',
      '0',
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (status !== 0) throw new Error(`ffmpeg extracted no frame ${index}: ${stderr.toString().slice(-300)}`);
  expect(stdout.length).toBe(WIDTH * HEIGHT * 3);
  return stdout;
}

/** The least-squares line through (position, value) pairs: value ≈ intercept + slope · position. */
function line(points: ReadonlyArray<[number, number]>): { intercept: number; slope: number } {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  const slope = covariance / variance;
  return { intercept: meanY - slope * meanX, slope };
}

/**
 * Which part of the picture a frame shows, read from its pixels: along the middle row red runs from the framing's left
 * edge to its right, along the middle column green from its top to its bottom (both fitted over the inner 80 %).
 */
function measuredFraming(pixels: Buffer): Framing {
  const across: Array<[number, number]> = [];
  for (let x = Math.round(WIDTH * 0.1); x < WIDTH * 0.9; x += 1)
    across.push([(x + 0.5) / WIDTH, pixels[((HEIGHT >> 1) * WIDTH + x) * 3]! / 255]);
  const down: Array<[number, number]> = [];
  for (let y = Math.round(HEIGHT * 0.1); y < HEIGHT * 0.9; y += 1)
    down.push([(y + 0.5) / HEIGHT, pixels[(y * WIDTH + (WIDTH >> 1)) * 3 + 1]! / 255]);
  const x = line(across);
  const y = line(down);
  return { x: x.intercept, width: x.slope, y: y.intercept, height: y.slope };
}

function expectFraming(measured: Framing, expected: Framing, what: string) {
  for (const key of ['x', 'y', 'width', 'height'] as const)
    expect(
      Math.abs(measured[key] - expected[key]),
      `${what} ${key}: ${measured[key]} for ${expected[key]}`,
    ).toBeLessThan(TOLERANCE);
}

const WHOLE = { x: 0, y: 0, width: 1, height: 1 };
const push = CameraMove.parse({
  start: WHOLE,
  end: { x: 0.3, y: 0.2, width: 0.4, height: 0.4 },
  easing: 'ease-in-out',
  kind: 'push',
});
const durations = [1000, 2000, 1000];
const cut = cutFrames(durations, '24');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-animatic-moves-'));
  picture = join(dir, 'map.png');
  writeFileSync(picture, await mapPicture());
  const board: ExportBoard = {
    projectName: 'P',
    canvasTitle: 'C',
    boardTitle: 'B',
    revision: 1,
    date: '2026-11-28',
    aspect: 16 / 9,
    shots: [shot('1', durations[0]!), shot('2', durations[1]!, push), shot('3', durations[2]!)],
    music: null,
  };
  const rendered = await renderAnimatic(
    board,
    AnimaticOptions.parse({ resolution: '720p', frame_rate: '24' }),
    () => undefined,
    new AbortController().signal,
  );
  film = join(dir, 'film.mp4');
  writeFileSync(film, rendered.bytes);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a camera move in the animatic', () => {
  it('shows the start framing on the shot’s first frame and the end framing on its last', () => {
    const first = cut[1]!.startFrame;
    const last = first + cut[1]!.frames - 1;
    expectFraming(measuredFraming(frameAt(first)), push.start, 'first frame');
    expectFraming(measuredFraming(frameAt(last)), push.end, 'last frame');
  });

  it('is on its eased course a third of the way through the shot', () => {
    const step = Math.floor(cut[1]!.frames / 3);
    expectFraming(
      measuredFraming(frameAt(cut[1]!.startFrame + step)),
      framingAt(push, step / (cut[1]!.frames - 1)),
      'a third of the way',
    );
  });

  it('leaves the whole picture on the shots without a move', () => {
    expectFraming(measuredFraming(frameAt(cut[0]!.frames - 1)), WHOLE, 'shot 1');
    expectFraming(measuredFraming(frameAt(cut[2]!.startFrame)), WHOLE, 'shot 3');
  });
});
