import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoTimestamp } from '../../src/shared/logger.js';

/** The logger's cheap ISO time (src/shared/logger.ts) writes exactly what pino's isoTime would. */
describe('isoTimestamp', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    '2026-11-28T09:13:16.000Z',
    '2026-11-28T09:13:16.007Z',
    '2026-11-28T09:13:16.042Z',
    '2026-11-28T09:13:16.999Z',
    '2026-11-28T09:13:17.001Z',
    '2026-12-31T23:59:59.999Z',
    '2027-01-01T00:00:00.000Z',
  ])('writes %s as pino would', (iso) => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date(iso));
    expect(isoTimestamp()).toBe(`,"time":"${iso}"`);
  });
});
