import { CameraMove, SMALLEST_FRAMING, type Framing } from '../../../src/contract/shots.js';
import { DEFAULT_EASING, framingProblems, placedFraming, WHOLE_PICTURE } from '../../../src/shared/camera-move.js';

/**
 * Drawing a shot's camera move on its frame (docs/deliverables.md, "Camera moves"): the start and end framings as
 * rectangles over the frame, in fractions of it (left, top, size), always the frame's own shape (height = width) and
 * inside it, as every deliverable reads a framing (`placedFraming`). Pure functions, so the editor's drag, the keys and
 * the saved move agree.
 */

export type Which = 'start' | 'end';

export interface MoveDraft {
  start: Framing | null;
  end: Framing | null;
  easing: NonNullable<CameraMove['easing']>;
}

/** One step of the keys: a hundredth of the frame. */
export const KEY_STEP = 0.01;

/** Fractions kept to a thousandth: what the shot list's numbers show, and finer than a pixel of a 1080p frame. */
const tidy = (value: number) => Math.round(value * 1000) / 1000;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** A framing the frame has: its shape, its smallest size, inside the frame, to a thousandth. */
export function fitted(framing: Framing): Framing {
  const placed = placedFraming(framing);
  const size = tidy(placed.width);
  return { x: tidy(clamp(placed.x, 0, 1 - size)), y: tidy(clamp(placed.y, 0, 1 - size)), width: size, height: size };
}

/**
 * The framing a drag draws from `anchor` to `to` (points in fractions of the frame): a square in fractions (the
 * frame's shape on screen) as large as the drag's longer side, growing from the anchor towards the pointer, at least
 * the smallest framing and never past the frame's edge.
 */
export function dragFraming(anchor: { x: number; y: number }, to: { x: number; y: number }): Framing {
  const dx = to.x - anchor.x;
  const dy = to.y - anchor.y;
  const room = Math.min(dx >= 0 ? 1 - anchor.x : anchor.x, dy >= 0 ? 1 - anchor.y : anchor.y);
  const size = clamp(Math.max(Math.abs(dx), Math.abs(dy)), SMALLEST_FRAMING, Math.max(SMALLEST_FRAMING, room));
  const x = dx >= 0 ? anchor.x : anchor.x - size;
  const y = dy >= 0 ? anchor.y : anchor.y - size;
  return fitted({ x, y, width: size, height: size });
}

/** The framing moved by (dx, dy) fractions, kept inside the frame. */
export function movedFraming(framing: Framing, dx: number, dy: number): Framing {
  return fitted({ ...framing, x: framing.x + dx, y: framing.y + dy });
}

/** The framing grown (or shrunk, negative) by `by` from its top-left corner, between the smallest and the frame. */
export function resizedFraming(framing: Framing, by: number): Framing {
  const size = clamp(framing.width + by, SMALLEST_FRAMING, 1);
  // Past the right or bottom edge, the corner moves back rather than the size being refused.
  return fitted({ x: framing.x, y: framing.y, width: size, height: size });
}

/** What an arrow key (with or without Shift) does to the selected framing; null for any other key. */
export function keyedFraming(framing: Framing, key: string, shift: boolean): Framing | null {
  const steps: Record<string, [number, number]> = {
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
  };
  const step = steps[key];
  if (!step) return null;
  if (shift) return resizedFraming(framing, (step[0] + step[1]) * KEY_STEP);
  return movedFraming(framing, step[0] * KEY_STEP, step[1] * KEY_STEP);
}

/** The draft of a stored move (or an empty one): what the editor shows when it opens. */
export function draftOf(stored: unknown): MoveDraft {
  const parsed = CameraMove.safeParse(stored);
  if (!stored || !parsed.success) return { start: null, end: null, easing: DEFAULT_EASING };
  return {
    start: fitted(parsed.data.start),
    end: fitted(parsed.data.end),
    easing: parsed.data.easing ?? DEFAULT_EASING,
  };
}

/**
 * The move to save from a draft, on top of the stored one (its kind is kept; a new move is `derived`, read from its
 * framings): checked by the contract and `framingProblems` as the shot list checks typed numbers. A reason in words
 * when it cannot be saved.
 */
export function moveToSave(draft: MoveDraft, stored: unknown): CameraMove | { refused: string } {
  if (!draft.start) return { refused: 'Draw the start framing first.' };
  if (!draft.end) return { refused: 'Draw the end framing.' };
  const before = CameraMove.safeParse(stored);
  const result = CameraMove.safeParse({
    kind: 'derived',
    ...(stored && before.success ? before.data : {}),
    start: draft.start,
    end: draft.end,
    easing: draft.easing,
  });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    return { refused: `move.${issue.path.join('.')}: ${issue.message}` };
  }
  const [problem] = framingProblems(result.data);
  if (problem) return { refused: `move.${problem.path}: ${problem.message}` };
  return result.data;
}

/** The whole frame, for a move that starts or ends on the full picture. */
export const WHOLE_FRAME: Framing = WHOLE_PICTURE;

/** Below this travel of the framing's centre the move reads as a push or a pull: the PDF's marks use the same. */
const CENTRED = 0.05;

/**
 * The arrows from the start framing to the end, as line segments in fractions: one from centre to centre for a move
 * that travels, one per corner for a push or a pull (the centres nearly the same), as the PDF marks a move.
 */
export function moveArrows(start: Framing, end: Framing): Array<[number, number, number, number]> {
  const centre = (framing: Framing) => [framing.x + framing.width / 2, framing.y + framing.height / 2] as const;
  const [sx, sy] = centre(start);
  const [ex, ey] = centre(end);
  if (Math.hypot(ex - sx, ey - sy) >= CENTRED) return [[sx, sy, ex, ey]];
  const corners = (framing: Framing) => [
    [framing.x, framing.y],
    [framing.x + framing.width, framing.y],
    [framing.x, framing.y + framing.height],
    [framing.x + framing.width, framing.y + framing.height],
  ];
  const [from, to] = [corners(start), corners(end)];
  return from.map(([x1, y1], index) => [x1!, y1!, to[index]![0]!, to[index]![1]!]);
}
