import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IsoTimestamps } from '../../../src/sim/iso-time.ts';

describe('IsoTimestamps', () => {
  it("gives Date's toISOString for any time a Date holds, in any order", () => {
    const iso = new IsoTimestamps();
    const times = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      // Around now, where a replay's times are: many on one day.
      fc.integer({ min: 1_767_225_600_000, max: 1_767_225_600_000 + 3 * 86_400_000 }),
      fc.constantFrom(
        0,
        -1,
        1,
        86_399_999,
        86_400_000,
        -86_400_000,
        -86_400_001,
        8.64e15,
        -8.64e15,
      ),
    );
    fc.assert(
      fc.property(fc.array(times, { minLength: 1, maxLength: 20 }), (list) => {
        for (const ms of list) expect(iso.of(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 500 },
    );
  });

  it('throws as Date does beyond its range', () => {
    expect(() => new IsoTimestamps().of(8.64e15 + 1)).toThrow(RangeError);
    expect(() => new IsoTimestamps().of(Number.NaN)).toThrow(RangeError);
  });
});
