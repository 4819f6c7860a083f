import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import type { Quote } from '../../../src/domain/index.ts';
import { T0, engineAt, request, x18 } from './helpers.ts';

const recorded: Quote = {
  marketId: 1,
  timestamp: T0 - 10,
  // Out of order on purpose: the engine sorts best first.
  bids: [
    { price: '2999.25', quantity: '0.5' },
    { price: '2999.5', quantity: '0.25' },
  ],
  asks: [
    { price: '3000.75', quantity: '0.4' },
    { price: '3000.5', quantity: '0.1' },
    { price: '3002', quantity: '1' },
  ],
};

describe('external quotes (replay)', () => {
  it('makes the book exactly the given levels, whatever the clock does', () => {
    const { engine, clock } = engineAt({ volatilityBps: 30 });
    engine.setExternalQuotes([recorded]);
    clock.now = T0 + 60_000;
    expect(engine.quotes(1)).toEqual([
      {
        marketId: 1,
        timestamp: T0 + 60_000,
        bids: [
          { price: '2999.5', quantity: '0.25' },
          { price: '2999.25', quantity: '0.5' },
        ],
        asks: [
          { price: '3000.5', quantity: '0.1' },
          { price: '3000.75', quantity: '0.4' },
          { price: '3002', quantity: '1' },
        ],
      },
    ]);
    expect(engine.midPriceX18(1)).toBe(x18('3000'));
    // Other markets keep walking.
    expect(engine.midPriceX18(5)).not.toBe(x18('150'));
  });

  it('fills a MARKET order by walking the given levels, and keeps them consumed', () => {
    const { engine } = engineAt();
    engine.setExternalQuotes([recorded]);
    const order = engine.placeOrder('a', request({ amountX18: x18('1') }));
    expect(order.status).toBe('FILLED');
    expect(order.fills.map((f) => [f.priceX18, f.amountX18])).toEqual([
      [x18('3000.5'), x18('0.1')],
      [x18('3000.75'), x18('0.4')],
      [x18('3002'), x18('0.5')],
    ]);
    // (300.05 + 1200.3 + 1501) / 1
    expect(order.avgFillPriceX18).toBe(x18('3001.35'));
    expect(engine.quotes(1)[0]?.asks).toEqual([{ price: '3002', quantity: '0.5' }]);

    const more = engine.placeOrder('a', request({ amountX18: x18('0.8') }));
    expect(more).toMatchObject({ status: 'CANCELLED', totalFilledX18: x18('0.5') });

    // A new quote for the market restores the book.
    engine.setExternalQuotes([recorded]);
    expect(engine.quotes(1)[0]?.asks[0]).toEqual({ price: '3000.5', quantity: '0.1' });
  });

  it('fills resting LIMIT orders (maker) when a new quote crosses them', () => {
    const { engine } = engineAt();
    engine.setExternalQuotes([recorded]);
    const order = engine.placeOrder(
      'a',
      request({ type: 'LIMIT', priceX18: x18('2999'), amountX18: x18('1') }),
    );
    expect(order.status).toBe('OPEN');
    engine.setExternalQuotes([
      {
        ...recorded,
        asks: [
          { price: '2998', quantity: '0.3' },
          { price: '2999', quantity: '5' },
        ],
      },
    ]);
    const filled = engine.getOrder('a', order.id);
    expect(filled?.status).toBe('FILLED');
    // Fills at its own price: 2999 × 1 × 0.0005 = 1.4995.
    expect(filled?.fills).toEqual([
      {
        priceX18: x18('2999'),
        amountX18: x18('1'),
        feeX18: x18('1.4995'),
        liquidity: 'MAKER',
        at: T0,
      },
    ]);
  });

  it('rejects a quote for an unknown market and applies none of the batch', () => {
    const { engine } = engineAt();
    expect(() => engine.setExternalQuotes([recorded, { ...recorded, marketId: 404 }])).toThrow(
      expect.objectContaining({
        code: ErrorCodes.SIM_INVALID_INPUT,
        message: 'external quote: market 404 not found',
      }),
    );
    expect(engine.quotes(1)[0]?.asks[0]?.price).toBe('3001.5');
    expect(() =>
      engine.setExternalQuotes([{ ...recorded, bids: [{ price: '1e3', quantity: '1' }] }]),
    ).toThrow(expect.objectContaining({ code: ErrorCodes.INVALID_DECIMAL }));
  });

  it('resumes the synthetic walk from the replayed mid when cleared', () => {
    const { engine } = engineAt();
    engine.setExternalQuotes([
      {
        ...recorded,
        bids: [{ price: '3100', quantity: '1' }],
        asks: [{ price: '3100.2', quantity: '1' }],
      },
    ]);
    engine.clearExternalQuotes(1);
    expect(engine.midPriceX18(1)).toBe(x18('3100.1'));
    // Spread 10 bp around 3100.1: best bid floor(3098.54995) = 3098.549950, ask ceil(3101.65005).
    expect(engine.quotes(1)[0]?.bids[0]?.price).toBe('3098.54995');
    expect(engine.quotes(1)[0]?.asks[0]?.price).toBe('3101.65005');
  });

  it('has no mid for a one-sided replayed book, and a clear keeps the mid it had (one mid rule)', () => {
    const { engine } = engineAt();
    const before = engine.midPriceX18(1);
    engine.setExternalQuotes([{ ...recorded, asks: [] }]);
    // Not the lone bid 2999.5: a one-sided book's one price is no fair value.
    expect(engine.midPriceX18(1)).toBeUndefined();
    engine.clearExternalQuotes(1);
    expect(engine.midPriceX18(1)).toBe(before);
    engine.setExternalQuotes([{ ...recorded, bids: [] }]);
    expect(engine.midPriceX18(1)).toBeUndefined();
  });
});
