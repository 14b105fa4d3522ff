import { afterEach, describe, expect, it } from 'vitest';
import { CanvasError } from '../../src/shared/errors.js';
import { createBodyCheckPool, type BodyCheckPool } from '../../src/validation/body-check-pool.js';

/**
 * A large body is checked on a worker thread with a time limit. The limit counts the check, not the thread's start:
 * a thread started cold (from TypeScript source here, hundreds of milliseconds; seconds on a loaded machine) used to
 * count against it, so a valid body was refused as "too complex to check" when only the start was slow.
 */

const LARGE = new TextEncoder().encode(
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { note: 'x'.repeat(100_000) } } }),
);

describe('the body check pool', () => {
  let pool: BodyCheckPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('checks a large body on a cold thread whose start takes longer than the check may', async () => {
    // 25 ms is far under a cold thread's start from source, and far over checking 100 KB of JSON.
    pool = createBodyCheckPool({ timeoutMs: 25 });
    const started = performance.now();
    const verdict = await pool.checkLarge(LARGE, { kind: 'mcp' });
    expect(performance.now() - started).toBeGreaterThan(25);
    expect(verdict?.kind).toBe('valid');
  });

  it('still refuses a check that runs past its limit once started, naming the limit', async () => {
    pool = createBodyCheckPool({ timeoutMs: 1 });
    // A body the check needs well over a millisecond for: a tools/call whose arguments are 200,000 small objects.
    const nodes = Array.from({ length: 200_000 }, (_, index) => ({ id: `n${index}`, x: index }));
    const heavy = new TextEncoder().encode(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_canvas', arguments: { nodes } },
      }),
    );
    const refused = await pool.checkLarge(heavy, { kind: 'mcp' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CanvasError);
    expect((refused as CanvasError).code).toBe('payload_too_large');
    expect((refused as CanvasError).message).toMatch(/too complex to check within 1 ms/);
  });
});
