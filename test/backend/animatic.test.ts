import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnimaticOptions } from '../../src/contract/index.js';
import { renderAnimatic } from '../../src/exports/animatic.js';
import type { ExportBoard, ExportShot } from '../../src/exports/export-board.js';
import { cutFrames } from '../../src/exports/timeline/frame-rate.js';
import { ffmpegPath, ffprobePath } from '../../src/shared/media-binaries.js';
import { probe } from '../support/media.js';
import { ffmpegFixture } from '../support/upload-fixtures.js';

/**
 * The animatic encoder on real files through the ffmpeg npm ships: frame-exact lengths at NTSC rates with crossfades
 * and push-ins, a video shot held on its last frame, the music ducked under a voice (measured in the film's sound), and
 * a cancel that stops the encoder.
 */

let dir: string;
const file = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
let picture: string;

const shot = (id: string, durationMs: number, media: Partial<ExportShot> = {}): ExportShot => ({
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
  ...media,
});
const board = (shots: ExportShot[], music: string | null = null): ExportBoard => ({
  projectName: 'P',
  canvasTitle: 'C',
  boardTitle: 'B',
  revision: 1,
  date: '2026-11-26',
  aspect: 16 / 9,
  shots,
  music,
});
const render = (value: ExportBoard, options: Partial<AnimaticOptions>, signal = new AbortController().signal) =>
  renderAnimatic(value, AnimaticOptions.parse({ resolution: '720p', ...options }), () => undefined, signal);
const frames = (bytes: Buffer) =>
  Number(
    (probe(bytes).streams.find((stream) => stream.codec_type === 'video') as { nb_read_frames?: string })
      .nb_read_frames,
  );

/** The mean volume (dB) of a narrow band around `frequency` in [start, start + length) s of a film's sound. */
function bandVolume(bytes: Buffer, frequency: number, start: number, length: number): number {
  const film = file(`band-${frequency}-${start}.mp4`, bytes);
  const { stderr } = spawnSync(
    ffmpegPath(),
    [
      '-hide_banner',
      '-nostats',
      '-ss',
      String(start),
      '-t',
      String(length),
      '-i',
      film,
      '-vn',
      '-af',
      `bandpass=f=${frequency}:width_type=q:w=10,volumedetect`,
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8' },
  );
  const match = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
  if (!match) throw new Error(`ffmpeg measured no volume: ${stderr.slice(-300)}`);
  return Number(match[1]);
}

/** Each stream's own duration in seconds, as ffprobe reads it from the container. */
function streamDurations(bytes: Buffer): { video: number; audio: number } {
  const film = file('durations.mp4', bytes);
  const { stdout } = spawnSync(
    ffprobePath(),
    ['-v', 'error', '-show_entries', 'stream=codec_type,duration', '-of', 'json', film],
    { encoding: 'utf8' },
  );
  const streams = (JSON.parse(stdout) as { streams: Array<{ codec_type: string; duration: string }> }).streams;
  const of = (type: string) => Number(streams.find((stream) => stream.codec_type === type)?.duration);
  return { video: of('video'), audio: of('audio') };
}

/** The mean colour of frame `index` (0-based) of a film, read by sharp from the frame ffmpeg extracts. */
async function frameColour(bytes: Buffer, index: number): Promise<{ r: number; g: number; b: number }> {
  const film = file('frames.mp4', bytes);
  const still = join(dir, `frame-${index}.png`);
  const { status, stderr } = spawnSync(
    ffmpegPath(),
    ['-v', 'error', '-i', film, '-vf', `select=eq(n\\,${index})`, '-vsync', '0', '-frames:v', '1', '-y', still],
    { encoding: 'utf8' },
  );
  if (status !== 0) throw new Error(`ffmpeg extracted no frame ${index}: ${stderr.slice(-300)}`);
  const { channels } = await sharp(still).stats();
  return { r: channels[0]!.mean, g: channels[1]!.mean, b: channels[2]!.mean };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-animatic-'));
  picture = file(
    'still.png',
    await sharp({ create: { width: 900, height: 700, channels: 3, background: { r: 180, g: 60, b: 60 } } })
      .png()
      .toBuffer(),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the animatic', () => {
  it('is exactly the board’s frames at 29.97 with crossfades and push-ins', async () => {
    const durations = [1000, 1700, 900, 1333];
    const film = await render(board(durations.map((ms, index) => shot(`${index + 1}`, ms))), {
      frame_rate: '29.97',
      transition: 'crossfade',
      push_in: true,
      burn_in: true,
    });
    const expected = cutFrames(durations, '29.97').reduce((sum, each) => sum + each.frames, 0);
    expect(frames(film.bytes)).toBe(expected);
    expect(probe(film.bytes).durationSeconds).toBeCloseTo((expected * 1001) / 30000, 1);
  });

  it('has sound exactly as long as its picture', async () => {
    const music = file('bed.wav', ffmpegFixture('wav', 1, 300));
    for (const frame_rate of ['24', '29.97'] as const) {
      const film = await render(board([shot('1', 1000), shot('2', 1700), shot('3', 1333)], music), { frame_rate });
      const { video, audio } = streamDurations(film.bytes);
      const expected = cutFrames([1000, 1700, 1333], frame_rate).reduce((sum, each) => sum + each.frames, 0);
      const frame = frame_rate === '24' ? 1 / 24 : 1001 / 30000;
      expect(video).toBeCloseTo(expected * frame, 3);
      // Within one frame of the picture, never short of it by more.
      expect(Math.abs(audio - video)).toBeLessThan(frame);
    }
  });

  it('centres a crossfade on the cut: half before, half after', async () => {
    const solid = async (name: string, background: { r: number; g: number; b: number }) =>
      file(
        name,
        await sharp({ create: { width: 320, height: 180, channels: 3, background } })
          .png()
          .toBuffer(),
      );
    const red = await solid('red.png', { r: 220, g: 0, b: 0 });
    const blue = await solid('blue.png', { r: 0, g: 0, b: 220 });
    const green = await solid('green.png', { r: 0, g: 200, b: 0 });
    const durations = [1000, 1000, 1000];
    const film = await render(
      board([
        shot('1', 1000, { picture: red }),
        shot('2', 1000, { picture: blue }),
        shot('3', 1000, { picture: green }),
      ]),
      { frame_rate: '24', transition: 'crossfade' },
    );
    const cut = cutFrames(durations, '24');
    // The film keeps its length: every shot's frames, no more.
    expect(frames(film.bytes)).toBe(cut.reduce((sum, each) => sum + each.frames, 0));
    // Far from any cut, each shot is its own colour.
    const first = await frameColour(film.bytes, 2);
    expect(first.r).toBeGreaterThan(200);
    expect(first.b).toBeLessThan(20);
    // On the cut frame the two shots are mixed about half and half.
    const onCut = await frameColour(film.bytes, cut[1]!.startFrame);
    expect(onCut.r / (onCut.r + onCut.b)).toBeGreaterThan(0.3);
    expect(onCut.r / (onCut.r + onCut.b)).toBeLessThan(0.7);
    const onSecondCut = await frameColour(film.bytes, cut[2]!.startFrame);
    expect(onSecondCut.b / (onSecondCut.b + onSecondCut.g)).toBeGreaterThan(0.3);
    expect(onSecondCut.b / (onSecondCut.b + onSecondCut.g)).toBeLessThan(0.7);
    // Before the cut the outgoing shot leads; a few frames after it the next shot dominates.
    const before = await frameColour(film.bytes, cut[1]!.startFrame - 3);
    expect(before.r).toBeGreaterThan(before.b);
    const after = await frameColour(film.bytes, cut[1]!.startFrame + 3);
    expect(after.b).toBeGreaterThan(after.r * 2);
  });

  it('holds a video shot’s last frame when its clip is shorter than the shot', async () => {
    const clip = file('clip.mp4', ffmpegFixture('mp4', 1));
    const film = await render(board([shot('1', 2500, { picture: null, video: clip })]), { frame_rate: '25' });
    expect(frames(film.bytes)).toBe(63);
  });

  it('ducks the music bed while a voice-over speaks on its shot, and keeps it up elsewhere', async () => {
    const voice = file('voice.wav', ffmpegFixture('wav', 1, 1000));
    const music = file('music.wav', ffmpegFixture('wav', 1.5, 200));
    const film = await render(board([shot('1', 1500), shot('2', 1500, { voiceOver: voice }), shot('3', 1500)], music), {
      frame_rate: '24',
    });
    expect(
      probe(film.bytes)
        .streams.map((stream) => stream.codec_name)
        .sort(),
    ).toEqual(['aac', 'h264']);
    const before = bandVolume(film.bytes, 200, 0.3, 0.9);
    const under = bandVolume(film.bytes, 200, 1.8, 0.6);
    const after = bandVolume(film.bytes, 200, 3.3, 0.9);
    // The music loops under the whole film (1.5 s of it under 4.5 s), and drops while the voice speaks.
    expect(under).toBeLessThan(before - 3);
    expect(after).toBeGreaterThan(under + 3);
    expect(bandVolume(film.bytes, 1000, 1.7, 0.6)).toBeGreaterThan(bandVolume(film.bytes, 1000, 0.3, 0.9) + 20);
  });

  it('stops the encoder when cancelled', async () => {
    const controller = new AbortController();
    const long = board(Array.from({ length: 20 }, (_, index) => shot(`${index + 1}`, 3000)));
    const started = Date.now();
    const rendering = renderAnimatic(
      long,
      AnimaticOptions.parse({ push_in: true }),
      (percent) => {
        if (percent > 6) controller.abort(new Error('cancelled by the test'));
      },
      controller.signal,
    );
    await expect(rendering).rejects.toThrow('cancelled by the test');
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('fails with ffmpeg’s own words, never hangs, when a clip cannot be read', async () => {
    const broken = file('broken.mp4', Buffer.from('not a film at all'));
    await expect(render(board([shot('1', 1000, { picture: null, video: broken })]), {})).rejects.toThrow(
      /ffmpeg failed/,
    );
  });
});
