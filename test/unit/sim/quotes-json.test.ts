import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/domain/index.ts';
import type { SimEngine } from '../../../src/sim/index.ts';
import { quotesToWire } from '../../../src/venue/schemas/index.ts';
import { T0, engineAt, request, x18 } from './helpers.ts';

// engine.quotesJson is the text the paper venue sends for GET /api/v1/quotes: it must be the
// very bytes JSON.stringify wrote of the wire body of engine.quotes (the simulation's trace
// hashes and the live client's decoder both see these bytes).
function expectSameText(engine: SimEngine): void {
  for (const marketId of [undefined, 1, 3, 5, 103, 404]) {
    expect(engine.quotesJson(marketId)).toBe(JSON.stringify(quotesToWire(engine.quotes(marketId))));
  }
}

// More levels than the book shows (BOOK_DEPTH 10), sizes that change from level to level.
const deep: Quote = {
  marketId: 5,
  timestamp: T0,
  bids: Array.from({ length: 12 }, (_, i) => ({
    price: `149.${String(90 - i)}`,
    quantity: i % 3 === 0 ? '2' : '0.5',
  })),
  asks: Array.from({ length: 12 }, (_, i) => ({ price: `150.${String(10 + i)}`, quantity: '1' })),
};

describe('SimEngine.quotesJson', () => {
  it('writes the JSON of the quotes as the books walk, fill and come back', () => {
    const { engine, clock } = engineAt({
      volatilityBps: 40,
      seed: 11,
      listings: [{ marketId: 103, activeAtMs: T0 + 30_000 }],
    });
    expectSameText(engine);
    for (let step = 0; step < 60; step += 1) {
      clock.now += 1_000;
      if (step % 4 === 0) {
        // Part of a level, then beyond one: sizes differ along the side, a level is used up.
        engine.placeOrder('a', request({ amountX18: x18(step % 8 === 0 ? '0.3' : '2.5') }));
        engine.placeOrder('b', request({ side: 'SELL', amountX18: x18('1.75') }));
      }
      if (step === 20) engine.setMarketActive(3, false);
      if (step === 40) engine.setMarketActive(3, true);
      expectSameText(engine);
    }
  });

  it('writes a replayed book, its depth cut and its consumed levels left out', () => {
    const { engine, clock } = engineAt({ volatilityBps: 40 });
    engine.setExternalQuotes([deep]);
    expectSameText(engine);
    expect(engine.quotes(5)[0]?.bids).toHaveLength(10);
    engine.placeOrder('a', request({ marketId: 5, amountX18: x18('2.5') }));
    engine.placeOrder('a', request({ marketId: 5, side: 'SELL', amountX18: x18('2.25') }));
    expectSameText(engine);
    clock.now += 5_000;
    expectSameText(engine);
  });

  it('writes an empty list when no market is quoted', () => {
    const { engine } = engineAt();
    for (const sim of engine.listMarkets()) engine.setMarketActive(sim.id, false);
    expect(engine.quotesJson()).toBe('{"quotes":[]}');
    expectSameText(engine);
  });
});
