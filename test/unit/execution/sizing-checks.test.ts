import { describe, expect, it } from 'vitest';
import {
  evaluateIntent,
  type EvaluationContext,
} from '../../../src/execution/pre-trade/evaluate-intent.ts';
import { sizeIntent } from '../../../src/execution/pre-trade/sizing.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { parseDecimalToX18 as x18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';

const eth = testMarket();
const btc = testMarket({ id: 3, symbol: 'BTC-USD', amountExpo: 6, priceExpo: 1 });
const shib = testMarket({
  id: 9,
  symbol: 'SHIB-USD',
  amountExpo: -2,
  priceExpo: 9,
  minAmountX18: x18('100'),
});
const inactive = testMarket({ id: 11, symbol: 'XRP-USD', isActive: false });
const quote = (marketId: number, bid: string, ask: string) => ({
  marketId,
  timestamp: 0,
  bids: [{ price: bid, quantity: '10' }],
  asks: [{ price: ask, quantity: '10' }],
});

function context(overrides: Partial<EvaluationContext> = {}): EvaluationContext {
  return {
    snapshot: createSnapshot({
      seq: 1,
      takenAt: 0,
      markets: [eth, btc, shib, inactive],
      quotes: [
        quote(1, '2999.5', '3000.5'),
        quote(3, '65000', '65001'),
        quote(9, '0.00001', '0.000011'),
      ],
    }),
    positionX18: () => 0n,
    limits: { maxOrderNotionalX18: x18('5000'), maxPositionNotionalX18: x18('20000') },
    dailyPnlX18: 0n,
    killSwitchOn: false,
    ...overrides,
  };
}

describe('sizeIntent', () => {
  it('rounds the amount down and limit prices toward the better side', () => {
    expect(
      sizeIntent(
        { marketId: 3, side: 'BUY', type: 'LIMIT', amount: '0.1234567', price: '65000.57' },
        btc,
      ),
    ).toEqual({
      marketId: 3,
      side: 'BUY',
      type: 'LIMIT',
      amountX18: x18('0.123456'),
      priceX18: x18('65000.5'),
      reduceOnly: false,
    });
    const sell = sizeIntent(
      { marketId: 3, side: 'SELL', type: 'LIMIT', amount: '1', price: '65000.51' },
      btc,
    );
    expect(sell).toMatchObject({ priceX18: x18('65000.6') });
  });

  it('handles negative expos (multiples of 100)', () => {
    expect(
      sizeIntent({ marketId: 9, side: 'BUY', type: 'MARKET', amount: '250' }, shib),
    ).toMatchObject({ amountX18: x18('200') });
  });

  it('refuses malformed and zero-after-rounding intents with a reason', () => {
    expect(
      sizeIntent({ marketId: 1, side: 'BUY', type: 'MARKET', amount: '1e-3' }, eth),
    ).toMatchObject({ reason: 'INVALID_INTENT' });
    expect(sizeIntent({ marketId: 1, side: 'BUY', type: 'LIMIT', amount: '1' }, eth)).toMatchObject(
      { reason: 'INVALID_INTENT' },
    );
    expect(sizeIntent({ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.0000000001' }, eth))
      .toMatchInlineSnapshot(`
      {
        "detail": "amount 0.0000000001 ETH-USD rounds to 0 on the quantum 0.000000001",
        "reason": "ZERO_AFTER_ROUNDING",
        "refused": true,
      }
    `);
  });
});

describe('evaluateIntent', () => {
  it('passes a valid order through', () => {
    expect(
      evaluateIntent({ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.5' }, context()),
    ).toMatchObject({ amountX18: x18('0.5') });
  });

  it.each([
    [{ marketId: 42, side: 'BUY', type: 'MARKET', amount: '1' }, 'MARKET_NOT_FOUND'],
    [{ marketId: 11, side: 'BUY', type: 'MARKET', amount: '1' }, 'MARKET_INACTIVE'],
    [{ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.00005' }, 'BELOW_MIN_AMOUNT'],
    [{ marketId: 1, side: 'BUY', type: 'MARKET', amount: '2' }, 'ABOVE_MAX_ORDER_NOTIONAL'],
    [
      { marketId: 1, side: 'SELL', type: 'MARKET', amount: '0.1', reduceOnly: true },
      'REDUCE_ONLY_WITHOUT_POSITION',
    ],
  ] as const)('%o is refused with %s', (intent, reason) => {
    expect(evaluateIntent(intent, context())).toMatchObject({ refused: true, reason });
  });

  it('pins the minimum-amount message', () => {
    expect(
      evaluateIntent({ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.00005' }, context()),
    ).toMatchInlineSnapshot(`
      {
        "detail": "amount 0.00005 ETH-USD is below the market minimum 0.0001",
        "reason": "BELOW_MIN_AMOUNT",
        "refused": true,
      }
    `);
  });

  it('lets reduce-only orders below the minimum through when they reduce', () => {
    const ctx = context({ positionX18: () => x18('0.5') });
    expect(
      evaluateIntent(
        { marketId: 1, side: 'SELL', type: 'MARKET', amount: '0.00005', reduceOnly: true },
        ctx,
      ),
    ).toMatchObject({ amountX18: x18('0.00005') });
  });

  it('limits the position after the fill, but never blocks reducing it', () => {
    const ctx = context({ positionX18: () => x18('6.7') });
    expect(
      evaluateIntent({ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.1' }, ctx),
    ).toMatchObject({ reason: 'ABOVE_MAX_POSITION' });
    expect(
      evaluateIntent({ marketId: 1, side: 'SELL', type: 'MARKET', amount: '1' }, ctx),
    ).toMatchObject({ amountX18: x18('1') });
  });

  it('refuses MARKET orders without a quote, and everything under the kill switch', () => {
    const noQuotes = context({ snapshot: createSnapshot({ seq: 1, takenAt: 0, markets: [eth] }) });
    expect(
      evaluateIntent({ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.5' }, noQuotes),
    ).toMatchObject({ reason: 'NO_REFERENCE_PRICE' });
    expect(
      evaluateIntent(
        { marketId: 1, side: 'BUY', type: 'LIMIT', amount: '0.5', price: '100' },
        noQuotes,
      ),
    ).toMatchObject({ priceX18: x18('100') });
    expect(
      evaluateIntent(
        { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.5' },
        context({ killSwitchOn: true }),
      ),
    ).toMatchObject({ reason: 'KILL_SWITCH' });
  });

  it('stops new exposure at the daily loss limit', () => {
    const ctx = context({
      limits: {
        maxOrderNotionalX18: x18('5000'),
        maxPositionNotionalX18: x18('20000'),
        dailyLossLimitX18: x18('100'),
      },
      dailyPnlX18: -x18('100'),
      positionX18: () => x18('1'),
    });
    expect(
      evaluateIntent({ marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.5' }, ctx),
    ).toMatchObject({ reason: 'DAILY_LOSS_LIMIT' });
    expect(
      evaluateIntent({ marketId: 1, side: 'SELL', type: 'MARKET', amount: '0.5' }, ctx),
    ).toMatchObject({ amountX18: x18('0.5') });
  });
});
