import { describe, expect, it } from 'vitest';
import { applyFill, FLAT_POSITION, type FillInput } from '../../../src/execution/positions.ts';
import { parseDecimalToX18 } from '../../../src/money/index.ts';

const x = parseDecimalToX18;
const fill = (side: 'BUY' | 'SELL', amount: string, price: string, fee = '0'): FillInput => ({
  marketId: 1,
  side,
  amountX18: x(amount),
  priceX18: x(price),
  feeX18: x(fee),
});

describe('applyFill (average-cost accounting)', () => {
  it('adds at the average price, realizes on a close, flips at the fill price, and is flat at zero', () => {
    let p = applyFill(FLAT_POSITION, fill('BUY', '2', '100', '0.1'));
    p = applyFill(p, fill('BUY', '2', '200', '0.1'));
    expect(p).toMatchObject({ amountX18: x('4'), avgEntryPriceX18: x('150'), realizedPnlX18: 0n });

    p = applyFill(p, fill('SELL', '1', '250'));
    expect(p).toMatchObject({ amountX18: x('3'), avgEntryPriceX18: x('150') });
    expect(p.realizedPnlX18).toBe(x('100'));

    // Closes 3 long at a loss of 50 each, then opens 2 short at the fill price.
    p = applyFill(p, fill('SELL', '5', '100'));
    expect(p).toMatchObject({ amountX18: -x('2'), avgEntryPriceX18: x('100') });
    expect(p.realizedPnlX18).toBe(-x('50'));

    // A short closed below its entry gains.
    p = applyFill(p, fill('BUY', '2', '90', '0.05'));
    expect(p).toMatchObject({ amountX18: 0n, avgEntryPriceX18: 0n });
    expect(p.realizedPnlX18).toBe(-x('30'));

    expect(p.feesX18).toBe(x('0.25'));
    expect(p.volumeX18).toBe(x('12'));
    expect(p.turnoverX18).toBe(x('200') + x('400') + x('250') + x('500') + x('180'));
  });

  it('never changes the position it is given', () => {
    const before = { ...FLAT_POSITION };
    applyFill(before, fill('BUY', '1', '10'));
    expect(before).toStrictEqual(FLAT_POSITION);
  });
});
