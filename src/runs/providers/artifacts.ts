import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';

/**
 * Real, deterministic artifacts for the offline provider: the same input always gives the same bytes, so the
 * whole flow can be seen and tested without a paid API.
 */

function seedBytes(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

/** Parses "16:9" style ratios; anything else is square. */
export function aspectOf(ratio: unknown): number {
  const match = typeof ratio === 'string' ? /^(\d+(?:\.\d+)?)\s*[:x/]\s*(\d+(?:\.\d+)?)$/.exec(ratio) : null;
  const value = match ? Number(match[1]) / Number(match[2]) : 1;
  return Number.isFinite(value) && value > 0.1 && value < 10 ? value : 1;
}

/**
 * One picture, as RGB bytes (3 per pixel): a gradient with bands whose colours derive from the seed; `t` in 0..1
 * slides the bands, so consecutive values make a moving picture.
 */
export function deterministicRgb(seed: string, width: number, height: number, t = 0): Buffer {
  const bytes = seedBytes(seed);
  const from = [bytes[0]!, bytes[1]!, bytes[2]!];
  const to = [bytes[3]!, bytes[4]!, bytes[5]!];
  const bands = 3 + (bytes[6]! % 6);
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    const band = Math.floor((y / height + t) * bands) % 2 === 0 ? 1 : 0.82;
    for (let x = 0; x < width; x += 1) {
      const mix = (x + y) / (width + height);
      const index = (width * y + x) * 3;
      for (let channel = 0; channel < 3; channel += 1) {
        rgb[index + channel] = Math.round((from[channel]! * (1 - mix) + to[channel]! * mix) * band);
      }
    }
  }
  return rgb;
}

function pngOf(rgb: Buffer, width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    png.data[pixel * 4] = rgb[pixel * 3]!;
    png.data[pixel * 4 + 1] = rgb[pixel * 3 + 1]!;
    png.data[pixel * 4 + 2] = rgb[pixel * 3 + 2]!;
    png.data[pixel * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** A PNG whose colours and bands derive from the seed: a storyboard placeholder that differs per prompt. */
export function deterministicPng(seed: string, width: number, aspect: number): Buffer {
  const height = Math.max(1, Math.round(width / aspect));
  return pngOf(deterministicRgb(seed, width, height), width, height);
}

/** A storyboard sheet: `count` frames, each from its own seed, in a grid of `columns` with a 4-pixel gutter. */
export function storyboardPng(seeds: string[], columns: number, cellWidth: number, aspect: number): Buffer {
  const gutter = 4;
  const cellHeight = Math.max(1, Math.round(cellWidth / aspect));
  const rows = Math.ceil(seeds.length / columns);
  const width = columns * cellWidth + (columns + 1) * gutter;
  const height = rows * cellHeight + (rows + 1) * gutter;
  const sheet = Buffer.alloc(width * height * 3, 0xf4);
  seeds.forEach((seed, index) => {
    const cell = deterministicRgb(seed, cellWidth, cellHeight);
    const left = gutter + (index % columns) * (cellWidth + gutter);
    const top = gutter + Math.floor(index / columns) * (cellHeight + gutter);
    for (let y = 0; y < cellHeight; y += 1)
      cell.copy(sheet, ((top + y) * width + left) * 3, y * cellWidth * 3, (y + 1) * cellWidth * 3);
  });
  return pngOf(sheet, width, height);
}

/** A mono 16-bit PCM WAV: a tone (speech) or a chord (music) whose pitch derives from the seed. */
export function deterministicWav(seed: string, durationMs: number, music: boolean): Buffer {
  const sampleRate = 16_000;
  const samples = Math.max(1, Math.round((sampleRate * durationMs) / 1000));
  const bytes = seedBytes(seed);
  const base = 180 + (bytes[0]! % 200);
  const frequencies = music ? [base, base * 1.25, base * 1.5] : [base];
  const data = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1) {
    const time = index / sampleRate;
    const envelope = Math.min(1, index / 800, (samples - index) / 800);
    const value =
      frequencies.reduce((sum, frequency) => sum + Math.sin(2 * Math.PI * frequency * time), 0) / frequencies.length;
    data.writeInt16LE(Math.round(value * envelope * 0.4 * 32_767), index * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
