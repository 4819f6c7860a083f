/**
 * Sizing by quote notional and by risk (issue 27): the amount is exact on the grid, rounded
 * down, and the largest that keeps within what was asked; a reduce-only amount is capped to the
 * position, so it never opens or flips one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateIntent,
  type EvaluationContext,
} from '../../../src/execution/pre-trade/evaluate-intent.ts';
import {
  amountForNotionalX18,
  amountForRiskX18,
  sizeIntent,
} from '../../../src/execution/pre-trade/sizing.ts';
import { createSnapshot } from '../../../src/market/snapshot.ts';
import { formatX18, parseDecimalToX18 as x18, quantumX18 } from '../../../src/money/index.ts';
import { testMarket } from '../../helpers/markets.ts';

const X18 = 10n ** 18n;
const expo = fc.integer({ min: -4, max: 18 });
const positive = (max: bigint) => fc.bigInt({ min: 1n, max });

describe('amountForNotionalX18', () => {
  it('is on the grid, within the notional, and the largest such amount', () => {
    fc.assert(
      fc.property(positive(10n ** 30n), positive(10n ** 26n), expo, (notional, price, e) => {
        const amount = amountForNotionalX18(notional, price, e);
        const q = quantumX18(e);
        expect(amount % q).toBe(0n);
        expect(amount >= 0n).toBe(true);
        // amount × price ≤ notional (both sides at x36), and one more quantum would exceed it.
        expect(amount * price <= notional * X18).toBe(true);
        expect((amount + q) * price > notional * X18).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('knows its example: 250 USD of ETH at 3000 on a 0.0001 grid is 0.0833', () => {
    expect(formatX18(amountForNotionalX18(x18('250'), x18('3000'), 4))).toBe('0.0833');
    expect(amountForNotionalX18(x18('250'), 0n, 4)).toBe(0n);
  });
});

describe('amountForRiskX18', () => {
  it('is on the grid, loses at most equity × risk over the stop distance, and is the largest', () => {
    fc.assert(
      fc.property(
        positive(10n ** 30n),
        positive(X18),
        positive(10n ** 24n),
        expo,
        (equity, fraction, distance, e) => {
          const amount = amountForRiskX18(equity, fraction, distance, e);
          const q = quantumX18(e);
          expect(amount % q).toBe(0n);
          // amount × distance ≤ equity × fraction, exactly (x54 both sides).
          expect(amount * distance * X18 <= equity * fraction * X18).toBe(true);
          expect((amount + q) * distance > equity * fraction).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('knows its example: 1 % of 10 000 over 40 is 2.5', () => {
    expect(formatX18(amountForRiskX18(x18('10000'), x18('0.01'), x18('40'), 4))).toBe('2.5');
  });
});

const eth = testMarket({ amountExpo: 4, priceExpo: 2, minAmountX18: x18('0.001') });
const snapshot = createSnapshot({
  seq: 1,
  takenAt: 0,
  markets: [eth],
  quotes: [
    {
      marketId: 1,
      timestamp: 0,
      bids: [{ price: '2999.5', quantity: '10' }],
      asks: [{ price: '3000.5', quantity: '10' }],
    },
  ],
});

function context(overrides: Partial<EvaluationContext> = {}): EvaluationContext {
  return {
    snapshot,
    positionX18: () => 0n,
    limits: { maxOrderNotionalX18: x18('50000'), maxPositionNotionalX18: x18('200000') },
    dailyPnlX18: 0n,
    killSwitchOn: false,
    ...overrides,
  };
}

describe('an intent sized by notional or risk', () => {
  it('values a MARKET buy at the best ask and a sell at the best bid', () => {
    const buy = evaluateIntent(
      { marketId: 1, side: 'BUY', type: 'MARKET', notional: '300' },
      context(),
    );
    const sell = evaluateIntent(
      { marketId: 1, side: 'SELL', type: 'MARKET', notional: '300' },
      context(),
    );
    // 300 / 3000.5 = 0.09998…, 300 / 2999.5 = 0.10001…: down to 0.0001.
    expect('amountX18' in buy && formatX18(buy.amountX18)).toBe('0.0999');
    expect('amountX18' in sell && formatX18(sell.amountX18)).toBe('0.1');
  });

  it('values a LIMIT order at its price on the grid', () => {
    const sized = sizeIntent(
      { marketId: 1, side: 'BUY', type: 'LIMIT', price: '2000.009', notional: '100' },
      eth,
    );
    // The price rounds down to 2000.00; 100 / 2000 = 0.05.
    expect('amountX18' in sized && formatX18(sized.amountX18)).toBe('0.05');
  });

  it('sizes by risk from the equity, and refuses without one', () => {
    const intent = {
      marketId: 1,
      side: 'BUY',
      type: 'MARKET',
      risk: '0.02',
      stopDistance: '45',
    } as const;
    const sized = evaluateIntent(intent, context({ equityX18: x18('12345.67') }));
    // 12345.67 × 0.02 / 45 = 5.48696…
    expect('amountX18' in sized && formatX18(sized.amountX18)).toBe('5.4869');
    expect(evaluateIntent(intent, context())).toEqual({
      refused: true,
      reason: 'NO_EQUITY',
      detail:
        "risk sizing on ETH-USD needs the account's equity: set risk.capital in the config (the venue reports no balance)",
    });
  });

  it('refuses a MARKET notional without a quote on its side', () => {
    const empty = createSnapshot({ seq: 1, takenAt: 0, markets: [eth], quotes: [] });
    expect(
      evaluateIntent(
        { marketId: 1, side: 'BUY', type: 'MARKET', notional: '100' },
        context({ snapshot: empty }),
      ),
    ).toMatchObject({ refused: true, reason: 'NO_REFERENCE_PRICE' });
  });

  it('refuses a notional that rounds to zero, naming what was asked', () => {
    expect(
      evaluateIntent({ marketId: 1, side: 'BUY', type: 'MARKET', notional: '0.1' }, context()),
    ).toMatchObject({
      reason: 'ZERO_AFTER_ROUNDING',
      detail: 'notional 0.1 at 3000.5 ETH-USD rounds to 0 on the quantum 0.0001',
    });
  });
});

describe('a reduce-only order', () => {
  it('never opens or flips a position: its amount is capped to what it reduces', () => {
    fc.assert(
      fc.property(
        // Within the notional limits at 3000 (16 ETH an order), so only the reduce rule decides.
        fc.bigInt({ min: -(10n ** 19n), max: 10n ** 19n }),
        fc.bigInt({ min: 1n, max: 160_000n }).map((quanta) => quanta * 10n ** 14n),
        fc.boolean(),
        (position, asked, buy) => {
          const onGrid = (position / 10n ** 14n) * 10n ** 14n;
          const intent = {
            marketId: 1,
            side: buy ? 'BUY' : 'SELL',
            type: 'MARKET',
            amount: formatX18(asked),
            reduceOnly: true,
          } as const;
          const sized = evaluateIntent(intent, context({ positionX18: () => onGrid }));
          if ('refused' in sized) {
            expect(sized.reason).toBe('REDUCE_ONLY_WITHOUT_POSITION');
            return;
          }
          const after = onGrid + (buy ? sized.amountX18 : -sized.amountX18);
          // It reduced: same sign or flat, and smaller.
          expect(after === 0n || after > 0n === onGrid > 0n).toBe(true);
          expect((after < 0n ? -after : after) < (onGrid < 0n ? -onGrid : onGrid)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('closes a long of 0.3 with a reduce-only sell of 1 as a sell of 0.3', () => {
    const sized = evaluateIntent(
      { marketId: 1, side: 'SELL', type: 'MARKET', amount: '1', reduceOnly: true },
      context({ positionX18: () => x18('0.3') }),
    );
    expect('amountX18' in sized && formatX18(sized.amountX18)).toBe('0.3');
  });
});
