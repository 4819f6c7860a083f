import { describe, expect, it } from 'vitest';
import { T0, engineAt, request, x18 } from './helpers.ts';

// Volatility 0: ETH-USD mid stays 3000, spread 10 bp and steps of 5 bp put the asks at
// 3001.5, 3003, 3004.5, … and the bids at 2998.5, 2997, 2995.5, …; one ETH per level.
const still = { levelSize: { 'ETH-USD': '1', 'SOL-USD': '10' } };

describe('MARKET orders: immediate-or-cancel', () => {
  it('fills a small order at the best ask and reports the fill price', () => {
    const { engine } = engineAt(still);
    const order = engine.placeOrder('a', request({ amountX18: x18('0.5') }));
    expect(order).toMatchObject({
      id: 1,
      status: 'FILLED',
      totalFilledX18: x18('0.5'),
      priceX18: 0n,
      avgFillPriceX18: x18('3001.5'),
      createdAt: '2026-01-05T00:00:00.000Z',
      updatedAt: '2026-01-05T00:00:00.000Z',
    });
    expect(order.fills).toEqual([
      {
        priceX18: x18('3001.5'),
        amountX18: x18('0.5'),
        feeX18: x18('0.750375'),
        liquidity: 'TAKER',
        at: T0,
      },
    ]);
  });

  it('walks the book and cancels what the book cannot fill', () => {
    const { engine } = engineAt(still);
    const order = engine.placeOrder('a', request({ amountX18: x18('12') }));
    expect(order.status).toBe('CANCELLED');
    expect(order.totalFilledX18).toBe(x18('10'));
    expect(order.fills.map((f) => f.priceX18)).toEqual(
      Array.from({ length: 10 }, (_, i) => x18('3001.5') + BigInt(i) * x18('1.5')),
    );
    // (3001.5 + 3015) / 2
    expect(order.avgFillPriceX18).toBe(x18('3008.25'));
    expect(engine.listOpenOrders('a')).toEqual([]);
    expect(engine.quotes(1)[0]?.asks).toEqual([]);
  });

  it('keeps consumed liquidity consumed until the next price step', () => {
    const { engine, clock } = engineAt(still);
    // Quoted before the fill: the quote after it must show what the fill consumed.
    expect(engine.quotes(1)[0]?.asks[0]).toEqual({ price: '3001.5', quantity: '1' });
    engine.placeOrder('a', request({ amountX18: x18('1.5') }));
    expect(engine.quotes(1)[0]?.asks.slice(0, 2)).toEqual([
      { price: '3003', quantity: '0.5' },
      { price: '3004.5', quantity: '1' },
    ]);
    // A second order in the same step starts where the first stopped.
    expect(engine.placeOrder('b', request({ amountX18: x18('0.5') })).avgFillPriceX18).toBe(
      x18('3003'),
    );
    clock.now = T0 + 999;
    expect(engine.quotes(1)[0]?.asks[0]).toEqual({ price: '3004.5', quantity: '1' });
    clock.now = T0 + 1000;
    expect(engine.quotes(1)[0]?.asks[0]).toEqual({ price: '3001.5', quantity: '1' });
  });

  it('fills nothing and cancels a reduce-only order with no position to reduce', () => {
    const { engine } = engineAt(still);
    const order = engine.placeOrder('a', request({ isReduce: true, amountX18: x18('1') }));
    expect(order).toMatchObject({
      status: 'CANCELLED',
      totalFilledX18: 0n,
      avgFillPriceX18: 0n,
      fills: [],
    });
  });
});

describe('fees', () => {
  it('charges taker fees per fill, rounded up, exactly in bigint', () => {
    // SOL-USD: maker 2 bp, taker 5 bp; mid 150, asks 150.075, 150.15, … with 10 SOL each.
    const { engine } = engineAt(still);
    const order = engine.placeOrder('a', request({ marketId: 5, amountX18: x18('10.000000001') }));
    // 10 × 150.075 × 0.0005 = 0.7503750 exactly; 0.000000001 × 150.15 × 0.0005 =
    // 0.000000000075075 exactly too: the sum is exact, no rounding needed.
    expect(order.fills.map((f) => f.feeX18)).toEqual([x18('0.750375'), x18('0.000000000075075')]);
    expect(order.feesPaidX18).toBe(x18('0.750375000075075'));
    expect(engine.account('a').feesPaidX18).toBe(x18('0.750375000075075'));
  });

  it('rounds a fee with a fraction of 10^-18 up', () => {
    const { engine } = engineAt(still);
    // 0.000100001 ETH (100001 amount quanta) at 3000.000001 (3000000001 price quanta), 5 bp:
    // notional × fee = k × 10^21 × 5 × 10^14 / 10^36 = k / 2 x18 with k = 100001 × 3000000001
    // = 300003000100001, odd: the exact fee is 150001500050000.5, charged 150001500050001.
    engine.setExternalQuotes([
      { marketId: 1, timestamp: T0, bids: [], asks: [{ price: '3000.000001', quantity: '1' }] },
    ]);
    const order = engine.placeOrder('a', request({ amountX18: x18('0.000100001') }));
    expect(order.status).toBe('FILLED');
    expect(order.feesPaidX18).toBe(150_001_500_050_001n);
    expect(engine.account('a').feesPaidX18).toBe(150_001_500_050_001n);
  });
});

describe('LIMIT orders', () => {
  it('fills what crosses at once and rests the rest as PARTIALLY_FILLED', () => {
    const { engine } = engineAt(still);
    const order = engine.placeOrder(
      'a',
      request({ type: 'LIMIT', priceX18: x18('3003'), amountX18: x18('3') }),
    );
    expect(order.status).toBe('PARTIALLY_FILLED');
    expect(order.totalFilledX18).toBe(x18('2'));
    expect(order.priceX18).toBe(x18('3003'));
    expect(order.avgFillPriceX18).toBe(x18('3002.25'));
    expect(order.fills.every((f) => f.liquidity === 'TAKER')).toBe(true);
    expect(engine.listOpenOrders('a').map((o) => o.id)).toEqual([order.id]);
    expect(engine.listOpenOrders('b')).toEqual([]);
  });

  it('rests, then fills at its own price with the maker fee when a later step crosses it', () => {
    // SOL-USD with a lively walk: a bid just under the best ask is crossed within a few steps.
    const { engine, clock } = engineAt({ ...still, volatilityBps: 50, seed: 11 });
    const bestAsk = engine.quotes(5)[0]?.asks[0];
    expect(bestAsk).toEqual({ price: '150.075', quantity: '10' });
    const limit = x18('150.07');
    const placed = engine.placeOrder(
      'a',
      request({
        marketId: 5,
        type: 'LIMIT',
        priceX18: limit,
        amountX18: x18('4'),
        expiryTs: T0 + 600_000,
      }),
    );
    expect(placed).toMatchObject({ status: 'OPEN', totalFilledX18: 0n });

    let filled = placed;
    let steps = 0;
    while (filled.status === 'OPEN' && steps < 100) {
      steps += 1;
      clock.now = T0 + steps * 1000;
      filled = engine.getOrder('a', placed.id) ?? placed;
    }
    expect(steps).toBeGreaterThan(1);
    expect(filled.status).toBe('FILLED');
    // 4 × 150.07 × 0.0002 (maker) = 0.120056
    expect(filled.fills).toEqual([
      {
        priceX18: limit,
        amountX18: x18('4'),
        feeX18: x18('0.120056'),
        liquidity: 'MAKER',
        at: clock.now,
      },
    ]);
    expect(filled.updatedAt).toBe(new Date(clock.now).toISOString());
    expect(filled.createdAt).toBe('2026-01-05T00:00:00.000Z');
    expect(engine.position('a', 5).amountX18).toBe(x18('4'));
    // It filled at the first step whose best ask reached the limit: replay the same walk
    // without the order and read the best ask at each step.
    const twin = engineAt({ ...still, volatilityBps: 50, seed: 11 });
    for (let step = 1; step <= steps; step += 1) {
      twin.clock.now = T0 + step * 1000;
      const ask = x18(twin.engine.quotes(5)[0]?.asks[0]?.price ?? '0');
      expect(ask <= limit).toBe(step === steps);
    }
    expect(engine.account('a').cashX18).toBe(x18('100000') - x18('600.28') - x18('0.120056'));
  });

  it('is CANCELLED at its expiry, stamped with the expiry time', () => {
    const { engine, clock } = engineAt(still);
    const order = engine.placeOrder(
      'a',
      request({ type: 'LIMIT', priceX18: x18('2900'), amountX18: x18('1'), expiryTs: T0 + 5_000 }),
    );
    clock.now = T0 + 4_999;
    expect(engine.getOrder('a', order.id)?.status).toBe('OPEN');
    clock.now = T0 + 7_300;
    const expired = engine.getOrder('a', order.id);
    expect(expired).toMatchObject({ status: 'CANCELLED', updatedAt: '2026-01-05T00:00:05.000Z' });
    expect(engine.listOpenOrders('a')).toEqual([]);
  });

  it('is not visible to another account', () => {
    const { engine } = engineAt(still);
    const order = engine.placeOrder('a', request());
    expect(engine.getOrder('b', order.id)).toBeUndefined();
    expect(engine.getOrder('a', 99)).toBeUndefined();
  });

  it('reduce-only LIMIT: fills at most the opposite position, then cancels the excess', () => {
    const { engine } = engineAt(still);
    engine.placeOrder('a', request({ side: 'SELL', amountX18: x18('0.5') })); // short 0.5 at 2998.5
    const reduce = engine.placeOrder(
      'a',
      request({ type: 'LIMIT', priceX18: x18('3010'), amountX18: x18('2'), isReduce: true }),
    );
    expect(reduce).toMatchObject({ status: 'CANCELLED', totalFilledX18: x18('0.5') });
    expect(engine.position('a', 1).amountX18).toBe(0n);
    expect(engine.listOpenOrders('a')).toEqual([]);
  });
});

describe('accounts', () => {
  it('tracks position, cash, fees and realised PnL through a sequence (hand-computed)', () => {
    const { engine } = engineAt(still);
    // Buy 2: 1 @ 3001.5 + 1 @ 3003 (fees 1.50075 + 1.5015).
    expect(engine.placeOrder('a', request({ amountX18: x18('2') })).status).toBe('FILLED');
    expect(engine.position('a', 1)).toEqual({
      marketId: 1,
      amountX18: x18('2'),
      avgEntryPriceX18: x18('3002.25'),
      realizedPnlX18: 0n,
    });
    // Sell 3: 1 @ 2998.5, 1 @ 2997, 1 @ 2995.5 (fees 1.49925 + 1.4985 + 1.49775).
    // Closes the long at 5995.5 against a cost of 6004.5 (−9), opens a 1 ETH short at 2995.5.
    expect(engine.placeOrder('a', request({ side: 'SELL', amountX18: x18('3') })).status).toBe(
      'FILLED',
    );
    expect(engine.position('a', 1)).toEqual({
      marketId: 1,
      amountX18: -x18('1'),
      avgEntryPriceX18: x18('2995.5'),
      realizedPnlX18: -x18('9'),
    });
    // Reduce-only buy 5: only the 1 ETH short may be bought back, @ 3004.5 (fee 1.50225).
    const reduce = engine.placeOrder('a', request({ amountX18: x18('5'), isReduce: true }));
    expect(reduce).toMatchObject({
      status: 'CANCELLED',
      totalFilledX18: x18('1'),
      avgFillPriceX18: x18('3004.5'),
    });

    // Trades: −3001.5 − 3003 + 2998.5 + 2997 + 2995.5 − 3004.5 = −18; fees sum to 9.
    expect(engine.account('a')).toEqual({
      accountId: 'a',
      cashX18: x18('99973'),
      feesPaidX18: x18('9'),
      realizedPnlX18: -x18('18'),
      positions: [{ marketId: 1, amountX18: 0n, avgEntryPriceX18: 0n, realizedPnlX18: -x18('18') }],
    });
    expect(engine.account('someone-else')).toEqual({
      accountId: 'someone-else',
      cashX18: x18('100000'),
      feesPaidX18: 0n,
      realizedPnlX18: 0n,
      positions: [],
    });
  });

  it('uses the configured initial balance and numbers orders across accounts from 1', () => {
    const { engine } = engineAt({ ...still, initialBalance: '250.5' });
    expect(engine.account('x').cashX18).toBe(x18('250.5'));
    expect(engine.placeOrder('x', request()).id).toBe(1);
    expect(engine.placeOrder('y', request()).id).toBe(2);
    expect(engine.account('y').cashX18).toBe(x18('250.5') - x18('300.15') - x18('0.150075'));
    expect(engine.account('y').cashX18 < 0n).toBe(true);
  });
});
