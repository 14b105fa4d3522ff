import { frameAtMs, msOfFrame } from '../../../src/shared/timecode.js';

/**
 * The board page's rules (docs/ui.md, "The board page"), as plain functions a test drives without a browser: how many
 * frames a row holds, where the arrow keys take the focus, what a click does to the selection, where a dragged block
 * lands, and the animatic's time line (where each shot starts, which shot plays at a time, durations snapped to
 * whole frames).
 */

/** Frames a row of the grid holds: as many of `frameWidth` as fit with their gaps, at least one. */
export function gridColumns(width: number, frameWidth: number, gap: number): number {
  return Math.max(1, Math.floor((width + gap) / (frameWidth + gap)));
}

/** Where a key moves the focus in a grid of `count` frames, `columns` a row; null for a key that does not move it. */
export function focusAfterKey(key: string, index: number, count: number, columns: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  const clamp = (value: number) => Math.max(0, Math.min(last, value));
  switch (key) {
    case 'ArrowLeft':
      return clamp(index - 1);
    case 'ArrowRight':
      return clamp(index + 1);
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'ArrowDown':
      return index + columns <= last ? index + columns : index;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

export interface Selection {
  /** Selected shot ids, in no particular order (the board's order is applied where it matters). */
  ids: string[];
  /** Where a Shift click or Shift arrow extends from. */
  anchor: string | null;
}

export const NO_SELECTION: Selection = { ids: [], anchor: null };

/**
 * A click on a shot, as file managers do it: alone it selects that shot; with Ctrl (⌘) it adds or removes it; with
 * Shift it selects the run from the anchor to it (added to what Ctrl picked).
 */
export function clickSelection(
  selection: Selection,
  order: readonly string[],
  clicked: string,
  modifiers: { shift: boolean; toggle: boolean },
): Selection {
  if (modifiers.shift && selection.anchor && order.includes(selection.anchor)) {
    const [from, to] = [order.indexOf(selection.anchor), order.indexOf(clicked)];
    const run = order.slice(Math.min(from, to), Math.max(from, to) + 1);
    const kept = modifiers.toggle ? selection.ids.filter((id) => !run.includes(id)) : [];
    return { ids: [...kept, ...run], anchor: selection.anchor };
  }
  if (modifiers.toggle) {
    const ids = selection.ids.includes(clicked)
      ? selection.ids.filter((id) => id !== clicked)
      : [...selection.ids, clicked];
    return { ids, anchor: clicked };
  }
  return { ids: [clicked], anchor: clicked };
}

/** The selected shots in board order; the focused one alone when nothing is selected. */
export function selectedInOrder(order: readonly string[], selection: Selection, focused: string | null): string[] {
  const chosen = order.filter((id) => selection.ids.includes(id));
  return chosen.length > 0 ? chosen : focused && order.includes(focused) ? [focused] : [];
}

/**
 * Where a block lands when dropped on `target`, on its left half (before it) or right half (after it): the shot it
 * then stands before, or null for the end. Shots of the block itself are passed over, so the anchor is a shot that stays.
 */
export function dropAnchor(
  order: readonly string[],
  moving: readonly string[],
  target: string,
  after: boolean,
): string | null {
  const index = order.indexOf(target);
  if (index < 0) return null;
  for (let at = after ? index + 1 : index; at < order.length; at += 1)
    if (!moving.includes(order[at]!)) return order[at]!;
  return null;
}

/**
 * The anchor for moving the block one place earlier (-1) or later (+1) with the keyboard, or undefined when it cannot
 * move further: earlier, it goes before the shot just before its first; later, before the second shot after its last.
 */
export function stepAnchor(
  order: readonly string[],
  moving: readonly string[],
  step: -1 | 1,
): string | null | undefined {
  const places = moving.map((id) => order.indexOf(id)).filter((at) => at >= 0);
  if (places.length === 0) return undefined;
  const rest = order.filter((id) => !moving.includes(id));
  if (step < 0) {
    const first = Math.min(...places);
    const before = order.slice(0, first).filter((id) => !moving.includes(id)).length;
    if (before === 0 && places.every((at, index) => at === index)) return undefined;
    return rest[Math.max(0, before - 1)] ?? null;
  }
  const last = Math.max(...places);
  const after = order.slice(0, last + 1).filter((id) => !moving.includes(id)).length;
  if (after >= rest.length && places.every((at, index) => at === order.length - places.length + index))
    return undefined;
  return rest[after + 1] ?? null;
}

/** The animatic's rate: the board's time line is cut in frames of 1/24 s, as the animatic export's default. */
export const ANIMATIC_RATE = '24' as const;
const FRAME_MS = 1000 / 24;

/** A duration snapped to whole frames of 1/24 s, at least one frame. */
export function snapToFrames(ms: number): number {
  const frames = Math.max(1, Math.round(ms / FRAME_MS));
  return msOfFrame(frames, ANIMATIC_RATE);
}

/** A duration longer or shorter by whole frames (at least one frame). */
export function trimByFrames(ms: number, frames: number): number {
  const now = Math.max(1, frameAtMs(snapToFrames(ms), ANIMATIC_RATE));
  return msOfFrame(Math.max(1, now + frames), ANIMATIC_RATE);
}

/** Where each shot starts on the time line, and the whole length. */
export function timeline(durations: readonly number[]): { starts: number[]; total: number } {
  const starts: number[] = [];
  let total = 0;
  for (const duration of durations) {
    starts.push(total);
    total += duration;
  }
  return { starts, total };
}

/** The shot playing at `ms` (the last one at or past the end). */
export function shotAtTime(starts: readonly number[], ms: number): number {
  let found = 0;
  for (let index = 0; index < starts.length; index += 1) if (starts[index]! <= ms) found = index;
  return found;
}

/** "0:03.5": minutes, seconds and tenths, as the strip and the player say a time. */
export function clockOf(ms: number): string {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${minutes}:${String(seconds).padStart(2, '0')}.${tenths % 10}`;
}
