import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeDrawdown } from '../../../src/backtest/drawdown.ts';
import { downsampleIndices } from '../../../src/backtest/downsample.ts';
import { ErrorCodes, QuantaError } from '../../../src/errors/index.ts';

describe('downsampleIndices', () => {
  it('keeps every point of a short series', () => {
    expect(downsampleIndices([5n, 4n, 3n], [0n, 1n, 2n], 5)).toEqual([0, 1, 2]);
  });

  it('keeps the ends, each bucket extremes and the deepest drawdown', () => {
    // 12 points, 5 max: one bucket over indices 1..10.
    const equity = [10n, 11n, 15n, 9n, 12n, 14n, 8n, 13n, 10n, 12n, 11n, 10n];
    const { drawdownX18 } = computeDrawdown(equity, 10n);
    expect(downsampleIndices(equity, drawdownX18, 5)).toEqual([0, 2, 6, 11]);
  });

  it('never exceeds the cap, is ascending, has the ends and is deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -1000n, max: 1000n }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 5, max: 60 }),
        (equity, max) => {
          const { drawdownX18 } = computeDrawdown(equity, 0n);
          const picked = downsampleIndices(equity, drawdownX18, max);
          expect(picked.length).toBeLessThanOrEqual(max);
          expect(picked[0]).toBe(0);
          expect(picked[picked.length - 1]).toBe(equity.length - 1);
          expect([...new Set(picked)].sort((a, b) => a - b)).toEqual(picked);
          const deepest = drawdownX18.indexOf(drawdownX18.reduce((m, d) => (d > m ? d : m), 0n));
          if (equity.length > max)
            expect(picked.map((i) => drawdownX18[i])).toContain(drawdownX18[deepest]);
          expect(downsampleIndices(equity, drawdownX18, max)).toEqual(picked);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a cap below 5', () => {
    expect(() => downsampleIndices([], [], 4)).toThrow(QuantaError);
    expect(() => downsampleIndices([], [], 4)).toThrow(
      expect.objectContaining({ code: ErrorCodes.BACKTEST_INVALID_OPTION }),
    );
  });
});
