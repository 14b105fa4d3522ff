import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { AnimaticOptions, PdfBoardOptions, type CameraMove } from '../src/contract/index.js';
import { renderAnimatic } from '../src/exports/animatic.js';
import type { ExportBoard, ExportShot } from '../src/exports/export-board.js';
import { pdfBoard } from '../src/exports/pdf/pdf-board.js';
import { ffmpegPath } from '../src/shared/media-binaries.js';

/**
 * `npm run bench` (part): deliverables.
 * - A 100-shot PDF board (A4 landscape, 3 × 2, four fields under each picture) from 100 phone-size photos.
 * - A 60-second 1080p animatic from 20 stills (3 s each) with a voice-over track and a music bed, against a plain
 *   ffmpeg command doing the same encode on the same inputs in the same run (the stills looped for their durations,
 *   scaled and padded to 1080p, concatenated, the two sounds mixed, the same x264 and AAC settings). The target: the
 *   export takes at most 1.2 × the plain command's time. Runs alternate, so both meet the same machine state.
 */

const RUNS = Number(process.env.BENCH_DELIVERABLE_RUNS ?? 3);

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** A picture with some detail (gradients and noise: what an encoder meets in a sketch or a photo). */
async function still(index: number, width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${(index * 37) % 360},60%,55%)"/><stop offset="1" stop-color="#111"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${(index * 97) % width}" cy="${height / 2}" r="${height / 4}" fill="#eee" opacity="0.6"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

const shot = (index: number, picture: string, voiceOver: string | null, durationMs: number): ExportShot => ({
  id: `s${index}`,
  number: String(index + 1),
  caption: `Shot ${index + 1}`,
  action: 'The lamp turns; its beam sweeps the water and catches the boat as it leaves.',
  dialogue: index % 3 === 0 ? 'MARA: We leave tonight, whatever the sea says.' : null,
  notes: null,
  camera: 'Wide shot · Eye level · Static',
  lensMm: 35,
  durationMs,
  picture,
  video: null,
  voiceOver,
});

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-deliverables-'));
  try {
    const pictures: string[] = [];
    for (let index = 0; index < 100; index += 1) {
      const path = join(dir, `photo-${index}.jpg`);
      writeFileSync(path, await still(index, 2400, 1600));
      pictures.push(path);
    }
    const voice = join(dir, 'voice.wav');
    const music = join(dir, 'music.wav');
    execFileSync(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=800:duration=60', voice]);
    execFileSync(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=60', music]);

    // The PDF board.
    const board = (shots: ExportShot[], withMusic: string | null): ExportBoard => ({
      projectName: 'Bench',
      canvasTitle: 'Deliverables',
      boardTitle: 'Harbour',
      revision: 1,
      date: '2026-11-26',
      aspect: 16 / 9,
      shots,
      music: withMusic,
    });
    const pdfShots = pictures.map((picture, index) => shot(index, picture, null, 3000));
    const pdfTimes: number[] = [];
    let pdfBytes = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      const file = await pdfBoard(board(pdfShots, null), PdfBoardOptions.parse({}), null, () => undefined);
      pdfTimes.push(performance.now() - started);
      pdfBytes = file.bytes.length;
    }

    // The animatic against the plain command. The first voice-over runs the whole minute (one long track), as the
    // plain command mixes one voice track with the music.
    const animaticShots = pictures
      .slice(0, 20)
      .map((picture, index) => shot(index, picture, index === 0 ? voice : null, 3000));
    const plainArgs = [
      '-v',
      'error',
      '-y',
      ...animaticShots.flatMap((each) => ['-loop', '1', '-framerate', '24', '-t', '3', '-i', each.picture!]),
      '-i',
      voice,
      '-i',
      music,
      '-filter_complex',
      [
        ...animaticShots.map(
          (_, index) =>
            `[${index}:v]scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p[v${index}]`,
        ),
        `${animaticShots.map((_, index) => `[v${index}]`).join('')}concat=n=${animaticShots.length}:v=1:a=0[v]`,
        `[20:a][21:a]amix=inputs=2[a]`,
      ].join(';'),
      '-map',
      '[v]',
      '-map',
      '[a]',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-r',
      '24',
      '-c:a',
      'aac',
      '-b:a',
      '192k',
      '-ar',
      '48000',
      '-t',
      '60',
      join(dir, 'plain.mp4'),
    ];
    const ours: number[] = [];
    const plain: number[] = [];
    let animaticBytes = 0;
    for (let run = 0; run < RUNS; run += 1) {
      let started = performance.now();
      execFileSync(ffmpegPath(), plainArgs);
      plain.push(performance.now() - started);
      started = performance.now();
      const film = await renderAnimatic(
        board(animaticShots, music),
        AnimaticOptions.parse({ resolution: '1080p', frame_rate: '24' }),
        () => undefined,
        new AbortController().signal,
      );
      ours.push(performance.now() - started);
      animaticBytes = film.bytes.length;
    }

    // The same minute with a camera move on every shot (a push from the whole picture to its middle 60 %, linear),
    // against the plain command doing the same move with zoompan on the same stills (docs/deliverables.md, "Camera
    // moves").
    const push: CameraMove = {
      start: { x: 0, y: 0, width: 1, height: 1 },
      end: { x: 0.2, y: 0.2, width: 0.6, height: 0.6 },
      easing: 'linear',
    };
    const movingShots = animaticShots.map((each) => ({ ...each, move: push }));
    const frames = 72;
    // zoompan makes a shot's frames from one picture: each still is read once (not looped), as the export reads it.
    const plainMovesArgs = [
      '-v',
      'error',
      '-y',
      ...animaticShots.flatMap((each) => ['-i', each.picture!]),
      ...plainArgs
        .slice(plainArgs.indexOf(voice) - 1)
        .map((argument) =>
          argument.includes('concat=')
            ? argument.replaceAll(
                'format=yuv420p[v',
                `zoompan=z='1/(1-0.4*on/${frames - 1})':x='(0.5-(1-0.4*on/${frames - 1})/2)*iw':y='(0.5-(1-0.4*on/${frames - 1})/2)*ih':d=${frames}:s=1920x1080:fps=24,format=yuv420p[v`,
              )
            : argument === join(dir, 'plain.mp4')
              ? join(dir, 'plain-moves.mp4')
              : argument,
        ),
    ];
    const oursMoving: number[] = [];
    const plainMoving: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      let started = performance.now();
      execFileSync(ffmpegPath(), plainMovesArgs);
      plainMoving.push(performance.now() - started);
      started = performance.now();
      await renderAnimatic(
        board(movingShots, music),
        AnimaticOptions.parse({ resolution: '1080p', frame_rate: '24' }),
        () => undefined,
        new AbortController().signal,
      );
      oursMoving.push(performance.now() - started);
    }

    const ratio = median(ours) / median(plain);
    console.log(
      JSON.stringify(
        {
          pdf_100_shots: {
            runs: RUNS,
            median_ms: Math.round(median(pdfTimes)),
            pages: Math.ceil(100 / 6),
            megabytes: Number((pdfBytes / 1024 / 1024).toFixed(2)),
          },
          animatic_60s_1080p: {
            runs: RUNS,
            export_median_ms: Math.round(median(ours)),
            plain_ffmpeg_median_ms: Math.round(median(plain)),
            ratio: Number(ratio.toFixed(2)),
            target: '≤ 1.2',
            megabytes: Number((animaticBytes / 1024 / 1024).toFixed(2)),
          },
          animatic_60s_1080p_moves: {
            runs: RUNS,
            export_median_ms: Math.round(median(oursMoving)),
            plain_ffmpeg_median_ms: Math.round(median(plainMoving)),
            ratio: Number((median(oursMoving) / median(plainMoving)).toFixed(2)),
            target: '≤ 1.0',
          },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
