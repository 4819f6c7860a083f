import { describe, expect, it } from 'vitest';
import {
  RollingWindow,
  absAmount,
  fixedX18,
  toX18,
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

describe('exact x18 helpers for strategy maths', () => {
  it('toX18 takes numbers by their shortest decimal form, and signed decimal strings', () => {
    expect(toX18(1.5)).toBe(1_500_000_000_000_000_000n);
    expect(toX18(0.1)).toBe(100_000_000_000_000_000n);
    expect(toX18(1e-7)).toBe(100_000_000_000n);
    expect(toX18(2e21)).toBe(2n * 10n ** 39n);
    expect(toX18('-0.25')).toBe(-250_000_000_000_000_000n);
    expect(() => toX18(1e-19)).toThrow(/more than 18 fraction digits/);
    expect(() => toX18(Number.NaN)).toThrow(/not a decimal/);
  });

  it('toX18 reads an exponent as a moved point and leaves the digits to the one signed parser', () => {
    expect(toX18('-1.25e-3')).toBe(-1_250_000_000_000_000n);
    expect(toX18('1.50000000000000000000')).toBe(1_500_000_000_000_000_000n);
    expect(toX18('123e-18')).toBe(123n);
    expect(toX18('0.00012e4')).toBe(1_200_000_000_000_000_000n);
    expect(() => toX18('1234e-21')).toThrow(
      '"1234e-21" read as "0.000000000000000001234" has more than 18 fraction digits',
    );
  });

  it('fixedX18 rounds half away from zero to a fixed number of places, dividing exactly', () => {
    const one = 10n ** 18n;
    expect(fixedX18(one, 2, 3n)).toBe('0.33');
    expect(fixedX18(2n * one, 2, 3n)).toBe('0.67');
    expect(fixedX18((5n * one) / 2n, 0)).toBe('3');
    expect(fixedX18(-(5n * one) / 2n, 0)).toBe('-3');
    expect(fixedX18(-1n, 8)).toBe('0.00000000');
    expect(fixedX18(123_456_785n * 10n ** 10n, 8)).toBe('1.23456785');
    expect(fixedX18(123_456_785n * 10n ** 9n, 8)).toBe('0.12345679');
  });

  it('RollingWindow keeps the last `size` values and compares z-scores exactly', () => {
    const w = new RollingWindow(4);
    for (const v of ['10', '12', '11', '13', '9']) w.push(toX18(v));
    // Holds 12, 11, 13, 9: mean 11.25, population sd √2.1875 ≈ 1.479
    expect(w.count).toBe(4);
    expect(w.full).toBe(true);
    expect(w.sumX18).toBe(toX18('45'));
    expect(fixedX18(w.sumX18, 2, BigInt(w.count))).toBe('11.25');
    const nine = toX18('9'); // z ≈ -1.5213
    expect(w.compareZ(nine, toX18('-1.52'))).toBe(-1);
    expect(w.compareZ(nine, toX18('-1.53'))).toBe(1);
    expect(w.compareZ(nine, 0n)).toBe(-1);
    expect(w.compareZ(nine, toX18('2'))).toBe(-1);
    expect(w.compareZ(toX18('11.25'), 0n)).toBe(0);
    expect(w.compareZ(toX18('14'), toX18('1.85'))).toBe(1); // z ≈ 1.859
    expect(w.compareZ(toX18('14'), toX18('1.86'))).toBe(-1);
    // Exactly on the threshold: n − 1 equal values and one other give z² = n − 1.
    const exact = new RollingWindow(5);
    for (const v of ['1', '1', '1', '1', '3']) exact.push(toX18(v));
    expect(exact.compareZ(toX18('3'), toX18('2'))).toBe(0);
    expect(exact.compareZ(toX18('1'), toX18('-0.5'))).toBe(0);
    const flat = new RollingWindow(2);
    flat.push(1n);
    flat.push(1n);
    expect(flat.flat).toBe(true);
    expect(() => flat.compareZ(1n, 0n)).toThrow(/flat/);
  });

  it('RollingWindow compares the same value again after a push as a new window would', () => {
    const pushed = ['10', '12', '11', '13', '9', '20', '8', '30'];
    const w = new RollingWindow(4);
    const eleven = toX18('11');
    const thresholds = ['1', '-1', '0.1', '-0.1', '0'].map((t) => toX18(t));
    for (const [i, v] of pushed.entries()) {
      w.push(toX18(v));
      if (i < 1) continue;
      const fresh = new RollingWindow(4);
      for (const held of pushed.slice(Math.max(0, i - 3), i + 1)) fresh.push(toX18(held));
      for (const t of thresholds) expect(w.compareZ(eleven, t)).toBe(fresh.compareZ(eleven, t));
    }
  });

  it('RollingWindow.compareZ throws for a number (untyped code) every time, not once', () => {
    const w = new RollingWindow(3);
    for (const v of ['10', '20', '30']) w.push(toX18(v));
    const notX18 = 25 as unknown as bigint;
    expect(() => w.compareZ(notX18, 0n)).toThrow(TypeError);
    // Before the fix the value was remembered before the maths threw: the second call matched it
    // and compared the previous left side (0n) instead.
    expect(() => w.compareZ(notX18, 0n)).toThrow(TypeError);
  });
});

it('reads many position texts in turn, each as its own value', () => {
  const texts = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? `${i}.5` : `-0.0${i}`));
  for (let round = 0; round < 3; round++)
    for (const text of texts) expect(positionX18(text)).toBe(toX18(text));
  expect(() => positionX18('1.5.5')).toThrow(/position/);
});
