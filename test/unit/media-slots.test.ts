import { describe, expect, it } from 'vitest';
import { createMediaSlots } from '../../src/backend/uploads/media-slots.js';
import { CanvasError } from '../../src/shared/errors.js';

/**
 * Turns at the media tools (src/backend/uploads/media-slots.ts): a few films read at once in a process whoever sends them, a
 * bounded line of the others, and one person's share of both bounded, each refusal naming its setting.
 */

/** A job that runs until the test lets it end, and says when it started. */
function heldJob() {
  let finish!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    work: async () => {
      started();
      await done;
      return 'kept';
    },
    running,
    finish: () => finish(),
  };
}

async function refusal(promise: Promise<unknown>): Promise<CanvasError> {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CanvasError);
  return error as CanvasError;
}

describe('turns at reading films and sounds', () => {
  it('runs at most `concurrent` jobs at once, the others in the order they came, each as a turn frees', async () => {
    const slots = createMediaSlots({ concurrent: 2, queued: 8, perPerson: 8 });
    const jobs = Array.from({ length: 4 }, () => heldJob());
    const order: number[] = [];
    const results = jobs.map((job, index) =>
      slots.run(`person ${index}`, async () => {
        order.push(index);
        return job.work();
      }),
    );
    await Promise.all([jobs[0]!.running, jobs[1]!.running]);
    expect(slots.load()).toEqual({ running: 2, waiting: 2 });
    expect(order).toEqual([0, 1]);
    jobs[1]!.finish();
    await jobs[2]!.running;
    expect(order).toEqual([0, 1, 2]);
    expect(slots.load()).toEqual({ running: 2, waiting: 1 });
    for (const job of jobs) job.finish();
    expect(await Promise.all(results)).toEqual(['kept', 'kept', 'kept', 'kept']);
    expect(slots.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses one more than the line holds with unavailable, naming the setting and when to retry', async () => {
    const slots = createMediaSlots({ concurrent: 1, queued: 1, perPerson: 8 });
    const first = heldJob();
    const second = heldJob();
    const running = slots.run('a', first.work);
    const waiting = slots.run('b', second.work);
    await first.running;
    const refused = await refusal(slots.run('c', async () => 'never'));
    expect(refused.code).toBe('unavailable');
    expect(refused.message).toContain('--upload-media-queue');
    expect(refused.details).toMatchObject({ limit: 'upload_media_queue', max: 1, retry_after_ms: expect.any(Number) });
    first.finish();
    second.finish();
    await Promise.all([running, waiting]);
  });

  it("refuses one person's job past their share with rate_limited while others still get turns", async () => {
    const slots = createMediaSlots({ concurrent: 4, queued: 8, perPerson: 2 });
    const mine = [heldJob(), heldJob()];
    const held = mine.map((job) => slots.run('me', job.work));
    const refused = await refusal(slots.run('me', async () => 'never'));
    expect(refused.code).toBe('rate_limited');
    expect(refused.message).toContain('--upload-media-jobs-per-person');
    expect(refused.details).toMatchObject({ limit: 'upload_media_jobs_per_person', active: 2, max: 2 });
    expect(await slots.run('someone else', async () => 'theirs')).toBe('theirs');
    for (const job of mine) job.finish();
    await Promise.all(held);
    // A failed job gives its turn back too.
    await expect(
      slots.run('me', async () => {
        throw new Error('damaged');
      }),
    ).rejects.toThrow('damaged');
    expect(await slots.run('me', async () => 'again')).toBe('again');
    expect(slots.load()).toEqual({ running: 0, waiting: 0 });
  });
});
