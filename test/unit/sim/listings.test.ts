import { describe, expect, it } from 'vitest';
import { SimRejection } from '../../../src/sim/index.ts';
import { T0, engineAt, request } from './helpers.ts';

describe('market activity and listings', () => {
  it('keeps a scheduled listing inactive until its time, then trades it', () => {
    const { engine, clock } = engineAt({ listings: [{ marketId: 103, activeAtMs: T0 + 10_000 }] });
    expect(engine.market(103)?.isActive).toBe(false);
    expect(engine.quotes().map((q) => q.marketId)).toEqual([1, 3, 5, 2]);
    expect(engine.quotes(103)).toEqual([]);
    expect(() => engine.placeOrder('a', request({ marketId: 103, amountX18: 10n ** 16n }))).toThrow(
      new SimRejection('market 103 is not active'),
    );

    clock.now = T0 + 10_000;
    expect(engine.market(103)).toMatchObject({
      isActive: true,
      updatedAt: '2026-01-05T00:00:10.000Z',
    });
    expect(engine.quotes(103)).toHaveLength(1);
    expect(
      engine.placeOrder(
        'a',
        request({ marketId: 103, amountX18: 10n ** 16n, expiryTs: clock.now + 1000 }),
      ).status,
    ).toBe('FILLED');
  });

  it('turns markets on and off now or at a later time', () => {
    const { engine, clock } = engineAt();
    engine.setMarketActive(1, false);
    expect(engine.listMarkets().find((m) => m.id === 1)?.isActive).toBe(false);
    engine.setMarketActive(1, true, T0 + 3_000);
    clock.now = T0 + 2_999;
    expect(engine.market(1)?.isActive).toBe(false);
    clock.now = T0 + 3_000;
    expect(engine.market(1)?.isActive).toBe(true);
    expect(() => engine.setMarketActive(404, true)).toThrow(
      'setMarketActive: market 404 not found',
    );
  });

  it('lists the markets in the order given', () => {
    const { engine } = engineAt();
    expect(engine.listMarkets().map((m) => m.symbol)).toEqual([
      'ETH-USD',
      'BTC-USD',
      'SOL-USD',
      'TSLA-USD',
      'ETH-USDC',
    ]);
  });
});
