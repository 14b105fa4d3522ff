import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSharp } from '../shared/sharp.js';
import type { AnimaticOptions } from '../contract/exports.js';
import type { CameraMove } from '../contract/shots.js';
import { easingExpression, placedFraming } from '../shared/camera-move.js';
import { inScratch, runFfmpeg } from '../shared/ffmpeg.js';
import { fontFile } from './pdf/fonts.js';
import { cutFrames, rateFacts } from './timeline/frame-rate.js';
import type { ExportBoard, ExportFile, ExportProgress } from './export-board.js';

/**
 * The animatic (docs/deliverables.md, "Animatic"): the board's shots in order, each for exactly its frames at the
 * chosen rate (the same frame arithmetic as the editor's timelines, so an FCP XML cuts where the film does), as H.264
 * video and AAC sound in an MP4. Stills are fitted to the frame by sharp first (EXIF turned, letterboxed) so ffmpeg
 * decodes each picture once; a video shot plays its clip from the start, its last frame held if the clip is shorter.
 * The sound: each voice-over from its shot's start, the music bed under the whole film, ducked while a voice speaks
 * (a sidechain compressor keyed by the voices), silence when there is neither, so the file always has both streams.
 *
 * The ffmpeg npm package ships a 2018 build: no xfade, no amix normalize, no tpad. Crossfades are overlays of each shot
 * fading in over the one before, centred on the cut (each shot starts half a fade early and runs on half a fade late,
 * so the cut frame is the mix's midpoint and stays on its frame-exact time), and voices are padded to the film's length
 * so amix's 1/n scaling stays constant and is undone by a fixed gain.
 */

const SIZES = { '1080p': { width: 1920, height: 1080 }, '720p': { width: 1280, height: 720 } } as const;
/** A crossfade's length, at most; shorter on a board with a short shot (never more than half the shortest shot). */
const CROSSFADE_MS = 500;
/** How far the push-in goes by the end of a shot (8%: slow enough to read as a camera move, not a zoom). */
const PUSH_IN = 0.08;
/** The music bed's level under the film, and how hard the voices duck it. */
const MUSIC_GAIN = 0.5;

interface Segment {
  /** The filter-graph label of the segment's video, exactly `frames` long. */
  label: string;
  frames: number;
}

export async function renderAnimatic(
  board: ExportBoard,
  options: AnimaticOptions,
  progress: ExportProgress,
  signal: AbortSignal,
): Promise<ExportFile & { warnings: string[] }> {
  const { width, height } = SIZES[options.resolution];
  const { numerator, denominator } = rateFacts(options.frame_rate);
  // ffmpeg's rational form: 24000/1001 exactly, never 23.976.
  const rate = `${numerator}/${denominator}`;
  const cut = cutFrames(
    board.shots.map((shot) => shot.durationMs),
    options.frame_rate,
  );
  const totalFrames = cut.reduce((sum, shot) => sum + shot.frames, 0);
  const seconds = (frames: number) => `(${frames}/(${rate}))`;
  const totalSeconds = eval_(totalFrames, rate);
  const warnings = board.shots
    .filter((shot) => !shot.picture && !shot.video)
    .map((shot) => missingPicture(shot.number));
  if (board.missingSounds?.length) warnings.push(...board.missingSounds);
  const framesPerSecond = 1 / eval_(1, rate);
  const fade =
    options.transition === 'crossfade'
      ? Math.max(
          1,
          Math.min(
            Math.round((CROSSFADE_MS / 1000) * framesPerSecond),
            ...cut.map((shot) => Math.floor(shot.frames / 2)),
          ),
        )
      : 0;
  // How many of a fade's frames come before its cut: the cut frame is then the fade's midpoint (alpha lead / fade).
  const lead = Math.ceil(fade / 2);

  return inScratch(async (dir) => {
    const inputs: string[][] = [];
    const filters: string[] = [];
    const segments: Segment[] = [];
    const font = escapeFilterValue(fontFile('bold'));

    progress(2, 'Preparing pictures');
    for (const [index, shot] of board.shots.entries()) {
      signal.throwIfAborted();
      // A crossfaded shot also fills the fade's frames before its cut and after its end (none before the first shot,
      // none after the last): the film keeps its length.
      const frames =
        cut[index]!.frames +
        (fade > 0 && index > 0 ? lead : 0) +
        (fade > 0 && index < cut.length - 1 ? fade - lead : 0);
      const input = inputs.length;
      const label = `s${index}`;
      const burnIn = options.burn_in || (!shot.picture && !shot.video) ? [shotLabel(shot, font, height)] : [];
      if (shot.video) {
        inputs.push(['-i', shot.video]);
        filters.push(
          `color=c=black:s=${width}x${height}:r=${rate},trim=end_frame=${frames}[bg${index}]`,
          `[${input}:v]fps=${rate},scale=${width}:${height}:force_original_aspect_ratio=decrease,setsar=1[c${index}]`,
          // The clip over a black frame of the shot's length: centred, its last frame held when it ends early.
          [
            `[bg${index}][c${index}]overlay=(W-w)/2:(H-h)/2:eof_action=repeat`,
            `trim=end_frame=${frames}`,
            ...burnIn,
            `format=yuv420p[${label}]`,
          ].join(','),
        );
      } else {
        const still = join(dir, `still-${index}.png`);
        let fitted: FittedStill;
        try {
          fitted = await fittedStill(shot.picture, width, height);
        } catch {
          // A picture sharp cannot read (a damaged file) stands as a placeholder, named, rather than failing the film.
          warnings.push(`Shot ${shot.number}'s picture could not be read: a placeholder stands in.`);
          fitted = await fittedStill(null, width, height);
        }
        await writeFile(still, fitted.bytes);
        inputs.push(['-i', still]);
        const zoom = (z: string, x: string, y: string) =>
          `zoompan=z='${z}':x='${x}':y='${y}':d=${frames}:s=${width}x${height}:fps=${rate}`;
        const motion = shot.move
          ? zoom(
              ...moveExpressions(shot.move, fitted.box, {
                // The move runs over the shot's own frames: held at its start in a crossfade's frames before the cut,
                // at its end in those after.
                before: fade > 0 && index > 0 ? lead : 0,
                frames: cut[index]!.frames,
              }),
            )
          : options.push_in
            ? zoom(`1+${PUSH_IN}*on/${frames}`, 'iw/2-(iw/zoom/2)', 'ih/2-(ih/zoom/2)')
            : // One frame per tick of the film's own time base: frame N at N/rate exactly (the picture's own time base,
              // 1/25 for a still, would round some of them onto the same tick and drop them).
              `loop=loop=${frames - 1}:size=1:start=0,settb=${denominator}/${numerator},setpts=N`;
        filters.push(
          [
            // The still in the film's pixel format before it is repeated or moved: converted once, and a move scales
            // 4:2:0 planes (half the bytes of RGB) on each of its frames.
            `[${input}:v]setsar=1,format=yuv420p`,
            motion,
            `trim=end_frame=${frames}`,
            ...burnIn,
            `format=yuv420p[${label}]`,
          ].join(','),
        );
      }
      segments.push({ label, frames });
    }

    filters.push(...joinSegments(segments, cut, { fade, lead }, { width, height, rate, totalFrames, seconds }));
    const timecode = options.burn_in ? [runningTimecode(options.frame_rate, rate, font, height)] : [];
    // The film's length is cut here, in the graph, not by `-frames:v`: that option ends the whole output on the last
    // video frame, dropping the sound still queued behind it (the track came out about 50 ms short of the picture).
    filters.push(`[joined]${[`trim=end_frame=${totalFrames}`, ...timecode, 'format=yuv420p'].join(',')}[vout]`);

    const audio = soundTrack(board, cut, rate, inputs, totalSeconds);
    filters.push(...audio);

    const out = join(dir, 'animatic.mp4');
    // The graph from a file: a long board's graph passes the 128 KiB a single argument may be on Linux.
    const graph = join(dir, 'graph.txt');
    await writeFile(graph, filters.join(';\n'));
    progress(5, 'Encoding');
    await runFfmpeg(
      [
        ...inputs.flat(),
        '-filter_complex_script',
        graph,
        '-map',
        '[vout]',
        '-map',
        '[aout]',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '20',
        '-pix_fmt',
        'yuv420p',
        '-r',
        rate,
        '-c:a',
        'aac',
        '-b:a',
        '192k',
        '-ar',
        '48000',
        '-ac',
        '2',
        // The same board and options give the same bytes: no encoder version, no creation time.
        '-fflags',
        '+bitexact',
        '-flags:v',
        '+bitexact',
        '-flags:a',
        '+bitexact',
        '-map_metadata',
        '-1',
        '-movflags',
        '+faststart',
        '-progress',
        'pipe:1',
        '-nostats',
        '-y',
        out,
      ],
      signal,
      undefined,
      (text) => {
        const done = /out_time_ms=(\d+)/.exec(
          text
            .split('\n')
            .reverse()
            .find((line) => line.startsWith('out_time_ms=')) ?? '',
        );
        if (done) progress(5 + Math.min(94, (Number(done[1]) / 1e6 / totalSeconds) * 94), 'Encoding');
      },
    );
    return { bytes: await readFile(out), contentType: 'video/mp4', extension: 'mp4', warnings };
  });
}

function missingPicture(number: string): string {
  return `Shot ${number} has no picture: a placeholder stands in.`;
}

/** A rational rate's value times `frames` (seconds for frames / rate when `frames` is a count). */
function eval_(frames: number, rate: string): number {
  const [numerator, denominator = '1'] = rate.split('/');
  return (frames * Number(denominator)) / Number(numerator);
}

/** Where the picture sits in the frame, in fractions of the frame (a letterboxed picture leaves bands). */
interface PictureBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface FittedStill {
  bytes: Buffer;
  box: PictureBox;
}

/** The picture fitted inside the frame on black (never stretched), or a dark placeholder frame. */
async function fittedStill(picture: string | null, width: number, height: number): Promise<FittedStill> {
  const background = { r: 0, g: 0, b: 0, alpha: 1 };
  const whole = { x: 0, y: 0, width: 1, height: 1 };
  const sharp = await loadSharp();
  if (!picture)
    return {
      bytes: await sharp({ create: { width, height, channels: 3, background: { r: 38, g: 40, b: 46 } } })
        .png({ compressionLevel: 1 })
        .toBuffer(),
      box: whole,
    };
  const turned = sharp(picture, { limitInputPixels: 268_402_689 }).rotate();
  const facts = await turned.metadata();
  // EXIF orientations 5 to 8 turn the picture a quarter: its width and height swap.
  const quarter = (facts.orientation ?? 1) >= 5;
  const info = {
    width: (quarter ? facts.height : facts.width) ?? width,
    height: (quarter ? facts.width : facts.height) ?? height,
  };
  const bytes = await turned
    .resize(width, height, { fit: 'contain', background })
    .flatten({ background })
    .png({ compressionLevel: 1 })
    .toBuffer();
  // sharp's contain: scaled to fit, centred.
  const scale = Math.min(width / info.width, height / info.height);
  const shown = { width: (info.width * scale) / width, height: (info.height * scale) / height };
  return { bytes, box: { x: (1 - shown.width) / 2, y: (1 - shown.height) / 2, ...shown } };
}

/**
 * zoompan's zoom, x and y expressions for a move (src/shared/camera-move.ts): per output frame `on`, the framing at
 * the move's eased progress, mapped from the picture onto the frame it is fitted in. zoompan crops the frame's own
 * shape, so the crop is the framing's width, centred on the framing's centre.
 */
function moveExpressions(
  move: CameraMove,
  box: PictureBox,
  timing: { before: number; frames: number },
): [string, string, string] {
  const t = `clip((on-${timing.before})/${Math.max(1, timing.frames - 1)},0,1)`;
  const start = placedFraming(move.start);
  const end = placedFraming(move.end);
  const p = easingExpression(move.easing, t);
  const along = (from: number, to: number) => `(${num(from)}+${num(to - from)}*${p})`;
  // In fractions of the frame: the crop's width, and its centre.
  const width = along(start.width * box.width, end.width * box.width);
  const centreX = along(box.x + (start.x + start.width / 2) * box.width, box.x + (end.x + end.width / 2) * box.width);
  const centreY = along(
    box.y + (start.y + start.height / 2) * box.height,
    box.y + (end.y + end.height / 2) * box.height,
  );
  return [`1/${width}`, `(${centreX}-${width}/2)*iw`, `(${centreY}-${width}/2)*ih`];
}

/** A number for an ffmpeg expression: plain decimals, never exponent form. */
const num = (value: number) => value.toFixed(6);

/** drawtext of the shot's number (and "no picture" on a placeholder), top left. */
function shotLabel(shot: ExportBoard['shots'][number], font: string, height: number): string {
  const text = `Shot ${shot.number}${shot.picture || shot.video ? '' : ' · no picture'}`;
  return `drawtext=fontfile='${font}':text='${escapeFilterValue(text)}':x=${Math.round(height / 27)}:y=${Math.round(height / 27)}:fontsize=${Math.round(height / 20)}:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=${Math.round(height / 90)}`;
}

/** drawtext's own running timecode from 01:00:00:00 (the editors' record start), drop-frame at 29.97. */
function runningTimecode(frameRate: AnimaticOptions['frame_rate'], rate: string, font: string, height: number): string {
  const start = frameRate === '29.97' ? '01\\:00\\:00\\;00' : '01\\:00\\:00\\:00';
  return `drawtext=fontfile='${font}':timecode='${start}':rate=${rate}:x=w-tw-${Math.round(height / 27)}:y=${Math.round(height / 27)}:fontsize=${Math.round(height / 20)}:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=${Math.round(height / 90)}`;
}

/** The segments one after another: concatenated on cuts, or each fading in over the one before for crossfades. */
function joinSegments(
  segments: readonly Segment[],
  cut: ReadonlyArray<{ startFrame: number; frames: number }>,
  { fade, lead }: { fade: number; lead: number },
  frame: { width: number; height: number; rate: string; totalFrames: number; seconds: (frames: number) => string },
): string[] {
  if (fade === 0 || segments.length === 1)
    return [`${segments.map((segment) => `[${segment.label}]`).join('')}concat=n=${segments.length}:v=1:a=0[joined]`];
  const filters = [
    `color=c=black:s=${frame.width}x${frame.height}:r=${frame.rate},trim=end_frame=${frame.totalFrames}[base]`,
  ];
  let under = 'base';
  for (const [index, segment] of segments.entries()) {
    // Each later shot is laid `lead` frames before its cut, so half its fade is over the shot before.
    const start = cut[index]!.startFrame - lead;
    const faded =
      index === 0
        ? `[${segment.label}]setpts=PTS-STARTPTS[f${index}]`
        : `[${segment.label}]format=yuva420p,fade=t=in:s=0:n=${fade}:alpha=1,setpts=PTS-STARTPTS+${frame.seconds(start)}/TB[f${index}]`;
    const next = index === segments.length - 1 ? 'joined' : `o${index}`;
    filters.push(faded, `[${under}][f${index}]overlay=eof_action=pass[${next}]`);
    under = next;
  }
  return filters;
}

/**
 * The sound track's filters, adding its inputs: voices from their shots' starts, the music looped under the film and
 * ducked by them, trimmed (and padded) to exactly the film's length; silence when the board has no sound.
 */
function soundTrack(
  board: ExportBoard,
  cut: ReadonlyArray<{ startFrame: number }>,
  rate: string,
  inputs: string[][],
  totalSeconds: number,
): string[] {
  const end = totalSeconds.toFixed(6);
  const format = 'aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo';
  const filters: string[] = [];
  const voices: string[] = [];
  for (const [index, shot] of board.shots.entries()) {
    if (!shot.voiceOver) continue;
    const input = inputs.length;
    inputs.push(['-i', shot.voiceOver]);
    const delayMs = Math.round(eval_(cut[index]!.startFrame, rate) * 1000);
    filters.push(`[${input}:a]${format},adelay=${delayMs}|${delayMs},apad,atrim=end=${end}[vo${voices.length}]`);
    voices.push(`[vo${voices.length}]`);
  }
  let music: string | null = null;
  if (board.music) {
    const input = inputs.length;
    inputs.push(['-stream_loop', '-1', '-i', board.music]);
    filters.push(`[${input}:a]${format},volume=${MUSIC_GAIN},apad,atrim=end=${end}[music]`);
    music = '[music]';
  }
  const voice =
    voices.length === 0
      ? null
      : voices.length === 1
        ? voices[0]!
        : (filters.push(
            `${voices.join('')}amix=inputs=${voices.length}:dropout_transition=0,volume=${voices.length}[voices]`,
          ),
          '[voices]');
  if (voice && music) {
    filters.push(
      `${voice}asplit=2[key][voice]`,
      `${music}[key]sidechaincompress=threshold=0.02:ratio=12:attack=15:release=350[ducked]`,
      `[ducked][voice]amix=inputs=2:duration=first:dropout_transition=0,volume=2,atrim=end=${end}[aout]`,
    );
  } else if (voice || music) {
    filters.push(`${voice ?? music}anull[aout]`);
  } else {
    filters.push(`anullsrc=r=48000:cl=stereo,atrim=end=${end}[aout]`);
  }
  return filters;
}

/** A value inside a filter graph's single quotes: backslashes, quotes and colons escaped. */
function escapeFilterValue(value: string): string {
  return value.replace(/[\\':]/g, (char) => `\\${char}`);
}
