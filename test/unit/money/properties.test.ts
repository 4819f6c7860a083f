import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  X18_SCALE,
  ceilToGrid,
  floorToGrid,
  formatX18,
  isOnGrid,
  notionalExceeds,
  notionalX18,
  parseDecimalToX18,
  quantumX18,
} from '../../../src/money/index.ts';

function canonical(value: Decimal): string {
  const text = value.toFixed();
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const RUNS = { numRuns: 1000 };
const x18 = fc.bigInt({ min: 0n, max: 10n ** 40n });
const signedX18 = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });
const expo = fc.integer({ min: -18, max: 18 });

describe('money properties', () => {
  it('parse ∘ format is the identity on x18 values', () => {
    fc.assert(
      fc.property(x18, (value) => parseDecimalToX18(formatX18(value)) === value),
      RUNS,
    );
  });

  it('format gives canonical text: no trailing zeros, no dangling point', () => {
    fc.assert(
      fc.property(x18, (value) => {
        const text = formatX18(value);
        expect(text).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
      }),
      RUNS,
    );
  });

  it('floor to grid is ≤ the input, on the grid, and the largest such value', () => {
    fc.assert(
      fc.property(signedX18, expo, (value, e) => {
        const floored = floorToGrid(value, e);
        expect(floored <= value).toBe(true);
        expect(isOnGrid(floored, e)).toBe(true);
        expect(floored + quantumX18(e) > value).toBe(true);
      }),
      RUNS,
    );
  });

  it('ceil to grid is ≥ the input, on the grid, and the smallest such value', () => {
    fc.assert(
      fc.property(signedX18, expo, (value, e) => {
        const ceiled = ceilToGrid(value, e);
        expect(ceiled >= value).toBe(true);
        expect(isOnGrid(ceiled, e)).toBe(true);
        expect(ceiled - quantumX18(e) < value).toBe(true);
      }),
      RUNS,
    );
  });

  it('notional never loses a digit: matches a 100-digit decimal product exactly', () => {
    const precise = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_FLOOR });
    fc.assert(
      fc.property(x18, x18, (amount, price) => {
        const exact = new precise(formatX18(amount)).times(formatX18(price));
        const floor = notionalX18(amount, price);
        const ceil = notionalX18(amount, price, 'ceil');
        expect(formatX18(floor)).toBe(canonical(exact.toDecimalPlaces(18, Decimal.ROUND_FLOOR)));
        expect(formatX18(ceil)).toBe(canonical(exact.toDecimalPlaces(18, Decimal.ROUND_CEIL)));
        // the exact comparison agrees with the decimal product at the boundary
        expect(notionalExceeds(amount, price, floor)).toBe(floor * X18_SCALE !== amount * price);
      }),
      RUNS,
    );
  });
});
