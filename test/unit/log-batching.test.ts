import fs, { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchedDestination, createLogger } from '../../src/shared/logger.js';
import { waitFor } from '../support/wait.js';

/**
 * The server's log goes out in batches (src/shared/logger.ts): one write per few kilobytes, not one per request, and
 * still every line shows within a flush tick on a quiet server (none lost when the process exits: test/cli/log-exit.test.ts).
 */

describe('batched log lines', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-log-'));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  const linesOf = (file: string): string[] => {
    try {
      return readFileSync(file, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };

  it('writes lines logged a few milliseconds apart (requests one after another) together, not one write each', async () => {
    const file = join(dir, 'server.log');
    const writes = vi.spyOn(fs, 'write');
    const logger = createLogger('info', batchedDestination(file));
    for (let request = 0; request < 20; request += 1) {
      logger.info({ request }, 'mcp request');
      // The pace of one writer's sequential requests: each line's own write would have finished before the next.
      await new Promise((resolve) => setTimeout(resolve, 4));
    }
    const lines = await waitFor(
      async () => linesOf(file),
      (seen) => seen.length === 20,
    );
    expect(lines.map((line) => (JSON.parse(line) as { request: number }).request)).toEqual(
      Array.from({ length: 20 }, (_, index) => index),
    );
    // Twenty short lines (under the batch's 4 KB) go out in the flush ticks' writes (one, or two when a tick fell
    // within the 80 ms), and the tick after may add an empty one.
    expect(writes.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it("shows a quiet server's only line without waiting for more", async () => {
    const file = join(dir, 'quiet.log');
    createLogger('info', batchedDestination(file)).info('canvas-mcp listening');
    const lines = await waitFor(
      async () => linesOf(file),
      (seen) => seen.length === 1,
    );
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'canvas-mcp listening' });
  });
});
