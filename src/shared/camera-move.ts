import { SMALLEST_FRAMING, type CameraMove, type Framing } from '../contract/shots.js';

/**
 * A camera move over a still (docs/deliverables.md, "Camera moves"): where the framing is at a moment of the shot.
 * Every deliverable reads a move through this module, so the animatic, Present, the editors' timelines and the PDF
 * frame a shot alike.
 *
 * Each easing is a cubic polynomial in the shot's progress t (0..1), written once as its coefficients of t, t² and t³:
 * `easedProgress` evaluates it here, and the animatic hands the same coefficients to ffmpeg as an expression, so the
 * film's per-frame framing is this curve (ffmpeg cannot call back into JavaScript).
 */

export type EasingName = NonNullable<CameraMove['easing']>;

/** A move with no easing eases in and out. */
export const DEFAULT_EASING: EasingName = 'ease-in-out';

/** [a, b, c] of a·t + b·t² + c·t³: each passes through 0 at t = 0 and 1 at t = 1 (a + b + c = 1). */
export const EASING_CURVES: Readonly<Record<EasingName, readonly [number, number, number]>> = {
  linear: [1, 0, 0],
  // Quadratic in and out: starts still and arrives at speed, or the reverse.
  'ease-in': [0, 1, 0],
  'ease-out': [2, -1, 0],
  // Smoothstep: still at both ends, fastest at the middle.
  'ease-in-out': [0, 3, -2],
};

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** How far along the move is at time t (0..1 of the shot), after its easing. */
export function easedProgress(easing: EasingName | undefined, t: number): number {
  const [a, b, c] = EASING_CURVES[easing ?? DEFAULT_EASING];
  const p = clamp01(t);
  return clamp01(a * p + b * p * p + c * p * p * p);
}

/**
 * A framing as every deliverable shows it: the frame's shape (its height is its width) and inside the picture (moved
 * back in, never resized). The contract stores what it is given; this is where a framing is made one the picture has.
 */
export function placedFraming(framing: Framing): Framing {
  const size = Math.min(1, Math.max(SMALLEST_FRAMING, framing.width));
  const inside = (at: number) => Math.min(1 - size, Math.max(0, at));
  return { x: inside(framing.x), y: inside(framing.y), width: size, height: size };
}

/** What is wrong with a move's framings as typed, by field ("end.width"), before a person saves it. */
export function framingProblems(move: Pick<CameraMove, 'start' | 'end'>): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  for (const which of ['start', 'end'] as const) {
    const { x, y, width, height } = move[which];
    if (Math.abs(width - height) > 0.001)
      problems.push({ path: `${which}.height`, message: "must equal width: a framing has the frame's shape" });
    if (x + width > 1.001) problems.push({ path: `${which}.width`, message: 'x + width must be at most 1' });
    if (y + height > 1.001) problems.push({ path: `${which}.height`, message: 'y + height must be at most 1' });
  }
  return problems;
}

/** The framing at time t (0..1 of the shot): start at 0, end at 1, in between along the easing. */
export function framingAt(move: CameraMove, t: number): Framing {
  const p = easedProgress(move.easing, t);
  const start = placedFraming(move.start);
  const end = placedFraming(move.end);
  const along = (from: number, to: number) => from + (to - from) * p;
  return {
    x: along(start.x, end.x),
    y: along(start.y, end.y),
    width: along(start.width, end.width),
    height: along(start.height, end.height),
  };
}

/**
 * The easing as an ffmpeg expression of `t` (an expression already clipped to 0..1): the same polynomial as
 * `easedProgress`, for filters that evaluate per frame.
 */
export function easingExpression(easing: EasingName | undefined, t: string): string {
  const [a, b, c] = EASING_CURVES[easing ?? DEFAULT_EASING];
  return `(${a}*${t}+${b}*pow(${t},2)+${c}*pow(${t},3))`;
}

/** The whole picture: what a shot shows with no move. */
export const WHOLE_PICTURE: Framing = { x: 0, y: 0, width: 1, height: 1 };

/**
 * What a move does in words, from its framings when its kind is `derived`: a push (the framing shrinks), a pull (it
 * grows), a pan (it travels sideways) or a tilt (it travels up or down).
 */
export function moveKindOf(move: CameraMove): Exclude<NonNullable<CameraMove['kind']>, 'derived'> {
  if (move.kind && move.kind !== 'derived') return move.kind;
  const [start, end] = [placedFraming(move.start), placedFraming(move.end)];
  const grows = end.width - start.width;
  const across = end.x + end.width / 2 - (start.x + start.width / 2);
  const down = end.y + end.height / 2 - (start.y + start.height / 2);
  if (Math.abs(grows) >= Math.max(Math.abs(across), Math.abs(down))) return grows < 0 ? 'push' : 'pull';
  return Math.abs(across) >= Math.abs(down) ? 'pan' : 'tilt';
}

/** Framing presets the shot list offers: a start and an end a person picks by name. */
export const FRAMING_PRESETS = {
  'wide → close': { start: WHOLE_PICTURE, end: { x: 0.25, y: 0.25, width: 0.5, height: 0.5 } },
  'close → wide': { start: { x: 0.25, y: 0.25, width: 0.5, height: 0.5 }, end: WHOLE_PICTURE },
  'left → right': {
    start: { x: 0, y: 0.1, width: 0.8, height: 0.8 },
    end: { x: 0.2, y: 0.1, width: 0.8, height: 0.8 },
  },
  'right → left': {
    start: { x: 0.2, y: 0.1, width: 0.8, height: 0.8 },
    end: { x: 0, y: 0.1, width: 0.8, height: 0.8 },
  },
  'top → bottom': {
    start: { x: 0.1, y: 0, width: 0.8, height: 0.8 },
    end: { x: 0.1, y: 0.2, width: 0.8, height: 0.8 },
  },
  'bottom → top': {
    start: { x: 0.1, y: 0.2, width: 0.8, height: 0.8 },
    end: { x: 0.1, y: 0, width: 0.8, height: 0.8 },
  },
} as const satisfies Record<string, { start: Framing; end: Framing }>;
export type FramingPreset = keyof typeof FRAMING_PRESETS;
