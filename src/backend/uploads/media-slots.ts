import { CanvasError } from '../../shared/errors.js';

/**
 * Turns at reading uploaded films and sounds (ffprobe, then ffmpeg's copy and poster): a few at once in this process,
 * whoever sends them, so a burst of uploads cannot start one ffmpeg per request and starve the event loop and the
 * machine (16 at once held /healthz at 900 ms); a bounded line of the others, in the order they came; and a bound on
 * one person's share of both, so one person's burst is refused rather than making everyone else wait behind it.
 */

export interface MediaSlotLimits {
  /** Jobs running at once (`--upload-media-jobs`). */
  concurrent: number;
  /** Jobs waiting for a turn; one more is refused (`--upload-media-queue`). */
  queued: number;
  /** One budget's jobs running or waiting (`--upload-media-jobs-per-person`). */
  perPerson: number;
}

/** What a refused job is told to wait before trying again: about one short film's turn. */
const RETRY_AFTER_MS = 10_000;

export interface MediaSlots {
  /** Runs `work` in its turn; refuses at once when the person or the line is full. */
  run<T>(budgetKey: string, work: () => Promise<T>): Promise<T>;
  /** Jobs running and waiting now (metrics, tests). */
  load(): { running: number; waiting: number };
}

export function createMediaSlots(limits: MediaSlotLimits): MediaSlots {
  let running = 0;
  const waiting: Array<() => void> = [];
  const perPerson = new Map<string, number>();

  function release(budgetKey: string): void {
    const left = (perPerson.get(budgetKey) ?? 1) - 1;
    if (left > 0) perPerson.set(budgetKey, left);
    else perPerson.delete(budgetKey);
    const next = waiting.shift();
    // The turn passes straight to the next in line: `running` stays as it is.
    if (next) next();
    else running -= 1;
  }

  return {
    async run(budgetKey, work) {
      const mine = perPerson.get(budgetKey) ?? 0;
      if (mine >= limits.perPerson)
        throw new CanvasError(
          'rate_limited',
          `You have ${mine} films or sounds being read on this server already, the most one person may have at once (--upload-media-jobs-per-person, CANVAS_MCP_UPLOAD_MEDIA_JOBS_PER_PERSON = ${limits.perPerson}); send this one when they are kept.`,
          {
            limit: 'upload_media_jobs_per_person',
            active: mine,
            max: limits.perPerson,
            retry_after_ms: RETRY_AFTER_MS,
          },
        );
      if (running >= limits.concurrent && waiting.length >= limits.queued)
        throw new CanvasError(
          'unavailable',
          `This server is reading ${running} films or sounds with ${waiting.length} more waiting, the most it takes at once (--upload-media-queue, CANVAS_MCP_UPLOAD_MEDIA_QUEUE = ${limits.queued}); retry in a minute.`,
          { limit: 'upload_media_queue', waiting: waiting.length, max: limits.queued, retry_after_ms: RETRY_AFTER_MS },
        );
      perPerson.set(budgetKey, mine + 1);
      if (running < limits.concurrent) running += 1;
      else await new Promise<void>((turn) => waiting.push(turn));
      try {
        return await work();
      } finally {
        release(budgetKey);
      }
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
