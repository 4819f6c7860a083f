import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toOrderPrice } from 'quanta';
import { isQuantaError } from '../../../src/errors/index.ts';

const market = (priceExpo: number) => ({ priceExpo, symbol: 'ETH-USD' });

describe('toOrderPrice: a signal price rounded exactly to the market grid, in the direction asked', () => {
  it('known answers', () => {
    expect(toOrderPrice(2000.12345, market(2), 'down')).toBe('2000.12');
    expect(toOrderPrice(2000.12345, market(2), 'up')).toBe('2000.13');
    // 0.1 is taken as 0.1, not as the binary value just above it.
    expect(toOrderPrice(0.1, market(2), 'up')).toBe('0.1');
    expect(toOrderPrice(0.1 + 0.2, market(2), 'up')).toBe('0.31');
    expect(toOrderPrice(0.1 + 0.2, market(2), 'down')).toBe('0.3');
    expect(toOrderPrice(1.5e-7, market(8), 'up')).toBe('0.00000015');
    expect(toOrderPrice(123456, market(-2), 'down')).toBe('123400');
    expect(toOrderPrice(123456, market(-2), 'up')).toBe('123500');
    expect(toOrderPrice(1e21, market(0), 'down')).toBe('1000000000000000000000');
  });

  it('refuses what is no price, naming it', () => {
    for (const bad of [Number.NaN, Infinity, -1, 0]) {
      let caught: unknown;
      try {
        toOrderPrice(bad, market(2), 'down');
      } catch (error) {
        caught = error;
      }
      expect(isQuantaError(caught, 'QUANTA_INVALID_DECIMAL'), String(bad)).toBe(true);
    }
    expect(() => toOrderPrice(0.004, market(2), 'down')).toThrow(
      'toOrderPrice: signal price 0.004 rounds down to zero on the ETH-USD price grid',
    );
    expect(toOrderPrice(0.004, market(2), 'up')).toBe('0.01');
    expect(() => toOrderPrice(1, market(2), 'nearest' as never)).toThrow(
      "direction must be 'down' or 'up'",
    );
  });

  it('down ≤ signal ≤ up, both on the grid, one tick apart unless the signal is on it (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e12, noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: -3, max: 12 }),
        (signal, expo) => {
          const tick = new Decimal(10).pow(-expo);
          const exact = new Decimal(String(signal));
          const floor = exact.div(tick).floor().times(tick);
          const ceil = exact.div(tick).ceil().times(tick);
          if (floor.isZero()) {
            expect(() => toOrderPrice(signal, market(expo), 'down')).toThrow(/rounds down to zero/);
          } else {
            const down = new Decimal(toOrderPrice(signal, market(expo), 'down'));
            expect(down.eq(floor)).toBe(true);
            expect(down.lte(exact)).toBe(true);
          }
          const up = new Decimal(toOrderPrice(signal, market(expo), 'up'));
          expect(up.eq(ceil)).toBe(true);
          expect(up.gte(exact)).toBe(true);
          expect(up.div(tick).isInteger()).toBe(true);
          expect(up.minus(floor).eq(exact.div(tick).isInteger() ? 0 : tick)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
