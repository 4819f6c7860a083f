import { describe, expect, it } from 'vitest';
import { midPriceX18 } from '../../../src/domain/index.ts';
import { markPriceX18 } from '../../../src/market/mark-price.ts';

const X = 10n ** 18n;

describe('midPriceX18: the one mid rule', () => {
  it('is the mean of best bid and best ask, rounded down to the x18 unit', () => {
    expect(midPriceX18(100n * X, 101n * X)).toBe(100_500_000_000_000_000_000n);
    expect(midPriceX18(1n, 2n)).toBe(1n);
    expect(midPriceX18(0n, 0n)).toBe(0n);
  });

  it('has no mid for a one-sided or empty book', () => {
    expect(midPriceX18(100n * X, undefined)).toBeUndefined();
    expect(midPriceX18(100n * X, null)).toBeUndefined();
    expect(midPriceX18(undefined, 101n * X)).toBeUndefined();
    expect(midPriceX18(null, 101n * X)).toBeUndefined();
    expect(midPriceX18(null, null)).toBeUndefined();
  });

  it('is what the mark price of a quote is', () => {
    const level = (price: string): { price: string; quantity: string } => ({
      price,
      quantity: '1',
    });
    const quote = { marketId: 1, timestamp: 0, bids: [level('99.5')], asks: [level('100.25')] };
    expect(markPriceX18(quote)).toBe(
      midPriceX18(99_500_000_000_000_000_000n, 100_250_000_000_000_000_000n),
    );
    expect(markPriceX18({ ...quote, asks: [] })).toBeUndefined();
    expect(markPriceX18({ ...quote, bids: [] })).toBeUndefined();
  });
});
