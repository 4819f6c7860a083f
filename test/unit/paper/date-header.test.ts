import fc from 'fast-check';
import { expect, it } from 'vitest';
import { dateHeaderCache } from '../../../src/paper/date-header.ts';

const EDGES = [
  -0.5,
  -500,
  -999.9,
  -1000,
  -1000.5,
  -1001,
  0,
  0.4,
  999.9,
  1000,
  1795000000000,
  1795000000999.7,
  1795000001000,
  8.64e15 - 1,
  8.64e15,
  8.64e15 + 1,
  -8.64e15,
  -8.64e15 - 1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
];

it('gives new Date(ms).toUTCString() for any sequence of clock readings, the edges included', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.constantFrom(...EDGES),
          fc.double({ min: -2e15, max: 2e15, noNaN: true }),
          fc.integer({ min: 1795000000000, max: 1795000005000 }),
        ),
        { maxLength: 30 },
      ),
      (readings) => {
        const dateHeader = dateHeaderCache();
        for (const ms of readings) expect(dateHeader(ms)).toBe(new Date(ms).toUTCString());
      },
    ),
    { numRuns: 500 },
  );
});
