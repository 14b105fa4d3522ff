import type { z } from 'zod';
import { SHOT_ANGLES, SHOT_MOVEMENTS, SHOT_SIZES } from '../contract/shots.js';
import type { StoryboardFrame as StoryboardFrameSchema } from '../contract/node-data/media-nodes.js';

/**
 * How a shot reads in every deliverable, shared by the server's exports and the page's Present mode so both time and
 * describe a shot alike: its camera in words, and how long it plays.
 */

type StoryboardFrame = z.infer<typeof StoryboardFrameSchema>;

/** How long a shot plays when it has no duration and no dialogue to time (craft notes: 2 to 4 s for a board). */
export const DEFAULT_SHOT_MS = 3000;
/** A line of dialogue takes about 2.6 words a second when no duration is set (craft notes, "Deliverables"). */
const WORDS_PER_SECOND = 2.6;
const SHORTEST_READ_MS = 1500;

export const words = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** "Close-up · Low angle · Dolly / track", or null when none of the three is set. */
export function cameraOf(frame: StoryboardFrame): string | null {
  const parts: Array<string | null> = [
    frame.shotSize ? SHOT_SIZES[frame.shotSize] : null,
    frame.angle ? SHOT_ANGLES[frame.angle] : null,
    frame.movement ? SHOT_MOVEMENTS[frame.movement] : null,
  ];
  const set = parts.filter((part): part is string => part !== null);
  return set.length ? set.join(' · ') : null;
}

/** The shot's number as every deliverable prints it: its own, else its place on the board from 1. */
export function shotNumberOf(frame: Pick<StoryboardFrame, 'number'>, index: number): string {
  return frame.number ?? String(index + 1);
}

/** The shot's own duration, else its dialogue read at 2.6 words a second, else its clip's, else the default. */
export function shotDurationMs(frame: StoryboardFrame, clipMs: number | null): number {
  if (typeof frame.durationMs === 'number' && frame.durationMs > 0) return frame.durationMs;
  const dialogue = words(frame.dialogue);
  if (dialogue) {
    const count = dialogue.split(/\s+/).length;
    return Math.max(SHORTEST_READ_MS, Math.round((count / WORDS_PER_SECOND) * 1000) + 500);
  }
  return clipMs && clipMs > 0 ? clipMs : DEFAULT_SHOT_MS;
}
