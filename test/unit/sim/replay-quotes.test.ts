import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import type { Quote } from '../../../src/domain/index.ts';
import { DEFAULT_SIM_MARKETS } from '../../../src/sim/default-markets.ts';
import { T0, engineAt, request, x18 } from './helpers.ts';

const eth: Quote = {
  marketId: 1,
  timestamp: T0 - 10,
  bids: [
    { price: '2999.25', quantity: '0.5' },
    { price: '2999.5', quantity: '0.25' },
  ],
  asks: [
    { price: '3000.75', quantity: '0.4' },
    { price: '3000.5', quantity: '0.1' },
  ],
};

/** A quote whose levels throw when read: proves the engine did not read them. */
function untouchable(marketId: number): Quote {
  const fail = (): never => {
    throw new Error(`levels of market ${marketId} were read`);
  };
  return {
    marketId,
    timestamp: T0,
    get bids() {
      return fail();
    },
    get asks() {
      return fail();
    },
  };
}

describe('replayQuotes (lazy external books)', () => {
  it('reads no level of a market nobody trades, and fills like setExternalQuotes where one does', () => {
    const lazy = engineAt().engine;
    const eager = engineAt().engine;
    lazy.replayQuotes([eth, untouchable(3)]);
    eager.setExternalQuotes([eth]);
    const a = lazy.placeOrder('a', request({ amountX18: x18('0.3') }));
    const b = eager.placeOrder('a', request({ amountX18: x18('0.3') }));
    expect(a).toEqual(b);
    expect(lazy.midPriceX18(1)).toBe(x18('3000'));
    // Touching the untouched market now reads its levels.
    expect(() => lazy.placeOrder('a', request({ marketId: 3, amountX18: x18('0.001') }))).toThrow(
      'levels of market 3 were read',
    );
  });

  it('an order reads only the side it trades against; the mid reads both', () => {
    const { engine } = engineAt();
    const bidsRead = (): never => {
      throw new Error('bids were read');
    };
    engine.replayQuotes([
      {
        marketId: 1,
        timestamp: T0,
        get bids() {
          return bidsRead();
        },
        asks: eth.asks,
      },
    ]);
    // A BUY takes the asks, best first (3000.5, then 3000.75), and never parses the bids.
    const buy = engine.placeOrder('a', request({ amountX18: x18('0.3') }));
    expect(buy.status).toBe('FILLED');
    expect(buy.avgFillPriceX18).toBe(x18('3000.666666666666666666'));
    expect(() => engine.midPriceX18(1)).toThrow('bids were read');
  });

  it('matches resting orders against each new quote of their market only', () => {
    const { engine, clock } = engineAt();
    engine.replayQuotes([eth]);
    const resting = engine.placeOrder(
      'a',
      request({ type: 'LIMIT', side: 'BUY', priceX18: x18('2990'), amountX18: x18('0.2') }),
    );
    expect(resting.status).toBe('OPEN');
    clock.now = T0 + 1000;
    // Another market's quote is never parsed, the crossing one fills the order (maker).
    engine.replayQuotes([
      untouchable(3),
      { ...eth, asks: [{ price: '2989', quantity: '1' }], bids: [] },
    ]);
    expect(engine.getOrder('a', resting.id)?.status).toBe('FILLED');
    expect(engine.getOrder('a', resting.id)?.avgFillPriceX18).toBe(x18('2990'));
  });

  it('refuses a quote of an unknown market and applies none; a bad level fails when first needed', () => {
    const { engine } = engineAt();
    expect(() => engine.replayQuotes([eth, { ...eth, marketId: 404 }])).toThrow(
      expect.objectContaining({ code: ErrorCodes.SIM_INVALID_INPUT }),
    );
    // Still the synthetic book (10 levels a side), not the 2 levels of the refused batch.
    expect(engine.quotes(1)[0]?.bids).toHaveLength(10);
    engine.replayQuotes([{ ...eth, bids: [{ price: '1,5', quantity: '1' }] }]);
    expect(() => engine.midPriceX18(1)).toThrow(
      expect.objectContaining({ code: ErrorCodes.INVALID_DECIMAL }),
    );
  });

  it('addMarket: a market added later walks as if the engine had it from the start', () => {
    const sol = DEFAULT_SIM_MARKETS.find((m) => m.id === 5);
    if (sol === undefined) throw new Error('no SOL-USD');
    const withSol = engineAt({ volatilityBps: 30 });
    const without = engineAt({
      volatilityBps: 30,
      markets: DEFAULT_SIM_MARKETS.filter((m) => m.id !== 5),
    });
    for (const { clock } of [withSol, without]) clock.now = T0 + 37_500;
    without.engine.addMarket(sol);
    expect(without.engine.midPriceX18(5)).toBe(withSol.engine.midPriceX18(5));
    for (const { clock } of [withSol, without]) clock.now = T0 + 90_000;
    expect(without.engine.quotes(5)).toEqual(withSol.engine.quotes(5));
    expect(() => without.engine.addMarket(sol)).toThrow(
      expect.objectContaining({ code: ErrorCodes.SIM_INVALID_INPUT }),
    );
  });
});
