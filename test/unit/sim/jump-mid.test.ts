/**
 * SimEngine.jumpMid: a price jump moves the walk's mid at once, on the grid, and the walk goes on
 * from there; resting orders the new book crosses fill at their own price as maker.
 */
import { describe, expect, it } from 'vitest';
import { engineAt, request, T0, x18 } from './helpers.ts';

describe('jumpMid', () => {
  it('moves the mid by the given parts per billion, snapped to the grid, and keeps it', () => {
    const { engine, clock } = engineAt();
    expect(engine.midPriceX18(1)).toBe(x18('3000'));
    engine.jumpMid(1, 20_000_000n); // +2%
    expect(engine.midPriceX18(1)).toBe(x18('3060'));
    clock.now = T0 + 10_000; // a still walk (volatility 0): the jump stays
    expect(engine.midPriceX18(1)).toBe(x18('3060'));
    engine.jumpMid(1, -50_000_000n); // -5%
    expect(engine.midPriceX18(1)).toBe(x18('2907'));
  });

  it('fills a resting order the jumped book crosses, at its own price, as maker', () => {
    const { engine } = engineAt();
    const sell = engine.placeOrder(
      'a',
      request({ side: 'SELL', type: 'LIMIT', priceX18: x18('3030'), amountX18: x18('1') }),
    );
    expect(sell.status).toBe('OPEN');
    engine.jumpMid(1, 20_000_000n);
    const filled = engine.getOrder('a', sell.id);
    expect(filled).toMatchObject({ status: 'FILLED', avgFillPriceX18: x18('3030') });
    expect(filled?.fills.map((f) => f.liquidity)).toEqual(['MAKER']);
  });

  it('refuses an unknown market', () => {
    const { engine } = engineAt();
    expect(() => engine.jumpMid(999, 1n)).toThrow(/jumpMid: market 999/);
  });
});
