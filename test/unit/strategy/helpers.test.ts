import { expect, it } from 'vitest';
import {
  absAmount,
  isFlat,
  isLong,
  isShort,
  mid,
  positionX18,
  spread,
} from '../../../src/strategy/helpers.ts';
import type { Quote } from '../../../src/domain/index.ts';

const quote = (bid: string, ask: string): Quote => ({
  marketId: 1,
  timestamp: 0,
  bids: [{ price: bid, quantity: '1' }],
  asks: [{ price: ask, quantity: '1' }],
});

it('reads signed positions exactly', () => {
  expect(positionX18('-0.5')).toBe(-500_000_000_000_000_000n);
  expect(positionX18('0.000000000000000001')).toBe(1n);
  expect([isLong('0.01'), isShort('0.01'), isFlat('0.01')]).toEqual([true, false, false]);
  expect([isLong('-0.01'), isShort('-0.01'), isFlat('-0.01')]).toEqual([false, true, false]);
  expect([isLong('0'), isShort('0'), isFlat('0')]).toEqual([false, false, true]);
  expect(absAmount('-0.25')).toBe('0.25');
  expect(absAmount('0.25')).toBe('0.25');
});

it('mid (the mark-price rule) and spread of a quote, exact in x18', () => {
  expect(mid(quote('100', '101'))).toBe('100.5');
  expect(mid(quote('100', '100'))).toBe('100');
  // The mark-price rule rounds a half x18 unit down, like every other valuation.
  expect(mid(quote('100', '100.000000000000000001'))).toBe('100');
  expect(mid(quote('1', '2.000000000000000002'))).toBe('1.500000000000000001');
  expect(spread(quote('100.1', '100.35'))).toBe('0.25');
  expect(spread(quote('101', '100'))).toBe('-1');
  expect(mid(undefined)).toBeUndefined();
  expect(
    mid({ marketId: 1, timestamp: 0, bids: [], asks: [{ price: '1', quantity: '1' }] }),
  ).toBeUndefined();
  expect(spread({ marketId: 1, timestamp: 0, bids: [], asks: [] })).toBeUndefined();
});
