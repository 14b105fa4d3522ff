import { numberShots, type ConformReport } from '../../contract/index.js';
import type { FrameRate } from '../../contract/exports.js';
import { cutFrames, rateFacts } from '../../exports/timeline/frame-rate.js';
import { TimelineReadError, type ReadCut } from '../../exports/timeline/read-cut.js';

/**
 * How an editor's cut lands on a board (docs/deliverables.md, "Conform"), worked out without the store: the shots the
 * cut plays, in its order, each as many frames long as its clip; shots it dropped marked omitted, in their old place
 * (never deleted); clips that name no shot added as shots. Lengths are compared in frames, at the timeline's rate and
 * through the same arithmetic the exports cut with (`cutFrames`), so a timeline exported and read back unedited changes
 * nothing, and a shot one frame shorter gets a duration that gives back exactly that frame count.
 */

export type Frame = Record<string, unknown> & { id: string };

export interface ConformInput {
  frames: readonly Frame[];
  /** Each shot's length as the exports play it (its own, else read from its dialogue, its clip or the default). */
  playedMs: (frame: Frame) => number;
  cut: ReadCut;
  newShotId: () => string;
}

export interface ConformPlan {
  /** The board's frames after the conform; null when the cut changes nothing. */
  frames: Frame[] | null;
  report: Omit<ConformReport, 'revision' | 'node_id'>;
}

/** A clip of the cut: its shot, its frames in the timeline, and its frames in the board's cut before (none if new). */
type Entry = { frame: Frame; frames: number; was: number | null; added?: { name: string } };

/** The board's number of a shot, as the exports print it: its own, else its place. */
const numberOf = (frame: Frame, index: number) => (typeof frame.number === 'string' ? frame.number : String(index + 1));

export function planConform(input: ConformInput): ConformPlan {
  const { cut } = input;
  if (input.cut.clips.length === 0) throw new TimelineReadError('The timeline holds no clip on its picture track.');
  const numbered = input.frames.map((frame, index) => ({ ...frame, number: numberOf(frame, index) }));
  const position = new Map(numbered.map((frame, index) => [frame.id, index]));
  const isOmitted = (frame: Frame) => frame.status === 'omitted';

  // The cut as the board plays it now (what our exports wrote): each shot's frames there.
  const playing = numbered.filter((frame) => !isOmitted(frame));
  const places = cutFrames(playing.map(input.playedMs), cut.rate);
  const framesNow = new Map(playing.map((frame, index) => [frame.id, places[index]!.frames]));

  // Which shot each clip is: by the id it carries, else by the number in its name; a shot is in the cut once.
  const byId = new Map(numbered.map((frame) => [frame.id, frame]));
  const byNumber = new Map<string, Frame>();
  for (const frame of numbered) {
    // Two shots under one number (a board's numbers edited by hand): the first that plays, else the first.
    const taken = byNumber.get(frame.number);
    if (!taken || (isOmitted(taken) && !isOmitted(frame))) byNumber.set(frame.number, frame);
  }
  const notes = [...cut.notes];
  const used = new Set<string>();
  const entries: Entry[] = [];
  for (const clip of cut.clips) {
    const shot =
      (clip.shotId ? byId.get(clip.shotId) : undefined) ??
      (clip.shotNumber ? byNumber.get(clip.shotNumber) : undefined);
    if (shot && !used.has(shot.id)) {
      used.add(shot.id);
      entries.push({ frame: shot, frames: clip.frames, was: framesNow.get(shot.id) ?? null });
      continue;
    }
    if (shot)
      notes.push(
        `Shot ${String(shot.number)} is in the cut twice: its second clip ("${clip.name}") is added as a new shot.`,
      );
    // Named after the clip, in words a shot's description holds (a clip's name can be any length).
    const name =
      clip.name
        .replace(/\p{Cc}+/gu, ' ')
        .trim()
        .slice(0, 500) || `Clip ${entries.length + 1}`;
    entries.push({
      frame: { id: input.newShotId(), imageUrl: null, status: 'draft', caption: name },
      frames: clip.frames,
      was: null,
      added: { name },
    });
  }
  if (used.size === 0)
    throw new TimelineReadError(
      `No clip of the timeline names a shot of this board (by its id, or its number as in "Shot 4"): ${cut.clips.length} clip(s), none matched.`,
    );

  const durations = settleDurations(entries, input.playedMs, cut.rate);

  // The new order: the cut's, with every shot it left out after the shot it followed on the board.
  const order: Frame[] = entries.map((entry) => entry.frame);
  let leading = 0;
  for (const [index, frame] of numbered.entries()) {
    if (used.has(frame.id)) continue;
    const before = index === 0 ? -1 : order.findIndex((each) => each.id === numbered[index - 1]!.id);
    order.splice(before === -1 ? leading++ : before + 1, 0, frame);
  }

  const report: ConformPlan['report'] = {
    format: cut.format,
    frame_rate: cut.rate,
    clips: cut.clips.length,
    durations: [],
    moved: [],
    omitted: [],
    restored: [],
    added: [],
    notes,
  };
  const changed = new Map<string, Frame>();
  const change = (frame: Frame, fields: Record<string, unknown>) =>
    changed.set(frame.id, { ...(changed.get(frame.id) ?? frame), ...fields });
  const ref = (frame: Frame) => ({ shot_id: frame.id, number: String(frame.number) });
  const perFrame = 1000 / (rateFacts(cut.rate).numerator / rateFacts(cut.rate).denominator);

  for (const [index, entry] of entries.entries()) {
    const ms = durations[index]!;
    if (entry.added) {
      change(entry.frame, { durationMs: ms });
      continue;
    }
    const wasOmitted = isOmitted(entry.frame);
    if (wasOmitted) {
      report.restored.push(ref(entry.frame));
      change(entry.frame, { status: 'draft' });
    }
    const before = input.playedMs(entry.frame);
    if (ms !== before) {
      report.durations.push({
        ...ref(entry.frame),
        from_ms: before,
        to_ms: ms,
        from_frames: framesNow.get(entry.frame.id) ?? Math.max(1, Math.round(before / perFrame)),
        to_frames: entry.frames,
      });
      change(entry.frame, { durationMs: ms });
    }
  }
  for (const frame of numbered) {
    if (used.has(frame.id) || isOmitted(frame)) continue;
    report.omitted.push(ref(frame));
    change(frame, { status: 'omitted' });
  }

  // A new shot takes the free number after the shot before it (2A), as under locked numbers: the shots the editor's
  // cut and the call sheets name keep theirs.
  const final = numberShots(
    order.map((frame) => changed.get(frame.id) ?? frame),
    true,
  );
  for (const [index, entry] of entries.entries()) {
    if (!entry.added) continue;
    const placed = final.find((frame) => frame.id === entry.frame.id)!;
    report.added.push({
      shot_id: placed.id,
      number: String(placed.number),
      name: entry.added.name,
      position: final.indexOf(placed) + 1,
      duration_ms: durations[index]!,
      frames: entry.frames,
    });
  }
  report.moved = movedShots(final, position).map((frame) => ({
    ...ref(frame),
    from_position: position.get(frame.id)! + 1,
    to_position: final.indexOf(frame) + 1,
  }));
  const nothing =
    report.durations.length +
      report.moved.length +
      report.omitted.length +
      report.restored.length +
      report.added.length ===
    0;
  return { frames: nothing ? null : final, report };
}

/**
 * Each clip's duration in ms, so that the board's cut in its new order falls on exactly the timeline's frames through
 * `cutFrames`, whose boundaries round the running time. A shot whose length the editor kept keeps its duration when it
 * still lands on its frames; one that no longer does (a neighbour moved, and the rounding with it) is nudged by the
 * fewest milliseconds that put it back. A trimmed or new clip gets the whole milliseconds nearest its frames' exact
 * length. Every duration is checked against `cutFrames` itself before it is kept.
 */
function settleDurations(entries: readonly Entry[], playedMs: (frame: Frame) => number, rate: FrameRate): number[] {
  const { numerator, denominator } = rateFacts(rate);
  const boundary = (ms: number) => Math.round((ms * numerator) / (1000 * denominator));
  const msPerFrame = (1000 * denominator) / numerator;
  const chosen: number[] = [];
  let elapsed = 0;
  let target = 0;
  for (const entry of entries) {
    const start = target;
    target += entry.frames;
    const lands = (ms: number) => ms > 0 && Math.max(boundary(elapsed + ms), start + 1) === target;
    // A shot the editor left at its length keeps its duration (nudged if its new place rounds it off its frames); a
    // trimmed one changes by the frames' exact time, so the shots after it keep where their boundaries round; a new or
    // restored one ends on its last frame's exact time.
    const kept = entry.was === entry.frames ? playedMs(entry.frame) : null;
    let ms: number;
    if (kept !== null && lands(kept)) ms = kept;
    else {
      const preferred =
        kept ??
        (entry.was !== null
          ? playedMs(entry.frame) + (entry.frames - entry.was) * msPerFrame
          : target * msPerFrame - elapsed);
      // The whole milliseconds that land on the target boundary, then the one nearest the preferred length.
      const low = Math.ceil((target - 0.5) * msPerFrame - elapsed);
      const high = Math.ceil((target + 0.5) * msPerFrame - elapsed) - 1;
      ms = Math.min(Math.max(Math.round(preferred), low), high);
      for (const step of [0, 1, -1, 2, -2]) {
        if (lands(ms + step)) {
          ms += step;
          break;
        }
      }
      if (!lands(ms)) ms = target * msPerFrame - elapsed; // never reached: the window is most of a frame wide
    }
    chosen.push(ms);
    elapsed += ms;
  }
  // The promise, checked once more with the exports' own arithmetic.
  const placed = cutFrames(chosen, rate);
  placed.forEach((place, index) => {
    if (place.frames !== entries[index]!.frames)
      throw new Error(`conform: shot ${index + 1} does not land on its frames`);
  });
  return chosen;
}

/**
 * The fewest existing shots whose moves give the new order: all but a longest run of shots still in their old
 * relative order (a longest increasing subsequence of old places). Moving shot 2 to the end names shot 2 alone, not
 * every shot after it; swapping two neighbours names the later one, moved before the other.
 */
function movedShots(final: readonly Frame[], oldPlace: ReadonlyMap<string, number>): Frame[] {
  const existing = final.filter((frame) => oldPlace.has(frame.id));
  const places = existing.map((frame) => oldPlace.get(frame.id)!);
  const tails: number[] = [];
  const tailAt: number[] = [];
  const previous: number[] = new Array<number>(places.length).fill(-1);
  for (const [index, place] of places.entries()) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (tails[middle]! < place) low = middle + 1;
      else high = middle;
    }
    tails[low] = place;
    tailAt[low] = index;
    previous[index] = low > 0 ? tailAt[low - 1]! : -1;
  }
  const staying = new Set<number>();
  for (let index = tailAt[tails.length - 1] ?? -1; index !== -1; index = previous[index]!) staying.add(index);
  return existing.filter((_, index) => !staying.has(index));
}
