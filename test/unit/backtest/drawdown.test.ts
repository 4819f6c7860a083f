import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeDrawdown } from '../../../src/backtest/drawdown.ts';

describe('computeDrawdown', () => {
  it('finds the same largest absolute and relative drawdown as a brute-force search', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        fc.array(fc.bigInt({ min: -(10n ** 6n), max: 3n * 10n ** 6n }), { maxLength: 60 }),
        (start, equity) => {
          const result = computeDrawdown(equity, start);
          let bestAbs = 0n;
          let best = { numerator: 0n, denominator: 1n };
          for (let j = 0; j < equity.length; j += 1) {
            const peak = [start, ...equity.slice(0, j + 1)].reduce((m, e) => (e > m ? e : m));
            const dd = peak - (equity[j] as bigint);
            expect(result.drawdownX18[j]).toBe(dd);
            if (dd > bestAbs) bestAbs = dd;
            if (dd * best.denominator > best.numerator * peak)
              best = { numerator: dd, denominator: peak };
          }
          expect(result.maxX18).toBe(bestAbs);
          // Same fraction (cross-multiplied), whichever equal representation was kept.
          expect(result.maxFraction.numerator * best.denominator).toBe(
            best.numerator * result.maxFraction.denominator,
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
