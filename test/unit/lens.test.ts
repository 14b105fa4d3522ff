import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SENSOR_FORMAT_IDS } from '../../src/contract/index.js';
import { horizontalFovDeg, SENSOR_FORMATS } from '../../src/shared/lens.js';

const format = fc.constantFrom(...SENSOR_FORMAT_IDS);
const focal = fc.double({ min: 1, max: 2000, noNaN: true });

/** The formula written out independently: 2·atan(w / 2f) in degrees. */
function expectedDeg(widthMm: number, focalMm: number): number {
  return 2 * Math.atan2(widthMm, 2 * focalMm) * (180 / Math.PI);
}

describe('horizontal field of view from sensor format and focal length', () => {
  it('is within 0.1° of 2·atan(w / 2f) for every format and focal length', () => {
    fc.assert(
      fc.property(format, focal, (id, f) => {
        expect(Math.abs(horizontalFovDeg(id, f) - expectedDeg(SENSOR_FORMATS[id].widthMm, f))).toBeLessThan(0.1);
      }),
      { numRuns: 2000 },
    );
  });

  it('narrows as the focal length grows (monotonic in f)', () => {
    fc.assert(
      fc.property(format, focal, focal, (id, a, b) => {
        fc.pre(a !== b);
        const [short, long] = a < b ? [a, b] : [b, a];
        // Never wider for a longer lens; strictly narrower once the lenses differ by more than rounding.
        expect(horizontalFovDeg(id, short)).toBeGreaterThanOrEqual(horizontalFovDeg(id, long));
        if (long / short > 1.001) expect(horizontalFovDeg(id, short)).toBeGreaterThan(horizontalFovDeg(id, long));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives about 39.1° for a 35 mm lens on Super 35 (24.89 mm wide)', () => {
    expect(horizontalFovDeg('super35', 35)).toBeCloseTo(39.15, 1);
  });

  it('gives the textbook 39.6° for a 50 mm lens on full frame (36 mm wide)', () => {
    expect(horizontalFovDeg('full_frame', 50)).toBeCloseTo(39.6, 1);
  });

  it('has a width for each format the contract names, and refuses a focal length of 0', () => {
    expect(Object.keys(SENSOR_FORMATS).sort()).toEqual([...SENSOR_FORMAT_IDS].sort());
    expect(() => horizontalFovDeg('super16', 0)).toThrow(RangeError);
  });
});
