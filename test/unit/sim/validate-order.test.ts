import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors/index.ts';
import { SimRejection, type SimOrderRequest } from '../../../src/sim/index.ts';
import { testMarket } from '../../helpers/markets.ts';
import { T0, engineAt, request, x18 } from './helpers.ts';

const DAY = 24 * 60 * 60 * 1000;

const markets = [
  testMarket(),
  testMarket({ id: 7, symbol: 'DOGE-USD', amountExpo: 0, minAmountX18: x18('1') }),
  testMarket({ id: 9, symbol: 'SHIB-USD', amountExpo: -2, priceExpo: 9, minAmountX18: x18('100') }),
  testMarket({ id: 11, symbol: 'XRP-USD', isActive: false }),
  testMarket({ id: 12, symbol: 'SMALL-USD', maxPositionValueX18: x18('1000') }),
];

function rejection(overrides: Partial<SimOrderRequest>): string {
  const { engine } = engineAt({ markets, initialPrices: { 7: '0.1', 9: '0.00002' } });
  try {
    engine.validateOrder(request(overrides));
  } catch (error) {
    expect(error).toBeInstanceOf(SimRejection);
    expect((error as SimRejection).code).toBe(ErrorCodes.SIM_REJECTED);
    return (error as SimRejection).shortMessage;
  }
  throw new Error('expected a rejection');
}

describe('order validation (docs/conventions.md §4.4)', () => {
  it.each<[string, Partial<SimOrderRequest>, string]>([
    ['unknown market', { marketId: 404 }, 'market 404 not found'],
    ['inactive market', { marketId: 11 }, 'market 11 is not active'],
    ['expiry now', { expiryTs: T0 }, 'timestamp expired'],
    ['expiry past', { expiryTs: T0 - 1 }, 'timestamp expired'],
    ['expiry not an integer', { expiryTs: T0 + 0.5 }, 'timestamp expired'],
    ['expiry over 30 days', { expiryTs: T0 + 30 * DAY + 1 }, 'timestamp exceeding allowed value'],
    [
      'amount off grid',
      { amountX18: x18('0.0000000001') },
      'amount 0.0000000001 is off the quantum grid: must be a multiple of 0.000000001 (AmtToQtmConversionExpo 9)',
    ],
    [
      'amount off a grid of expo 0',
      { marketId: 7, amountX18: x18('1.5') },
      'amount 1.5 is off the quantum grid: must be a multiple of 1 (AmtToQtmConversionExpo 0)',
    ],
    [
      'amount off a negative-expo grid',
      { marketId: 9, amountX18: x18('150') },
      'amount 150 is off the quantum grid: must be a multiple of 100 (AmtToQtmConversionExpo -2)',
    ],
    [
      'price off grid',
      { type: 'LIMIT', priceX18: x18('3000.0000001') },
      'price 3000.0000001 is off the quantum grid: must be a multiple of 0.000001 (PriceToQtmConversionExpo 6)',
    ],
    ['negative amount', { amountX18: -x18('1') }, 'amount must not be negative (got -1)'],
    [
      'negative price',
      { type: 'LIMIT', priceX18: -x18('1') },
      'price must not be negative (got -1)',
    ],
    ['limit at price 0', { type: 'LIMIT', priceX18: 0n }, 'price must be above 0 for limit order'],
    ['market with a price', { priceX18: x18('3000') }, 'price should be 0 for market order'],
    [
      'below the minimum',
      { amountX18: x18('0.00009') },
      'amount 0.00009 is below the market minimum 0.0001',
    ],
    [
      'limit notional above the maximum',
      { marketId: 12, type: 'LIMIT', amountX18: x18('1'), priceX18: x18('1000.000001') },
      'order notional 1000.000001 is above the market maximum position value 1000',
    ],
    ['reduce-only of nothing', { isReduce: true, amountX18: 0n }, 'amount must be above 0'],
  ])('%s', (_name, overrides, message) => {
    expect(rejection(overrides)).toBe(message);
  });

  it('checks in the venue order: the first rule broken wins', () => {
    // Inactive, expired, off grid, negative and priced all at once: "not active" comes first.
    expect(rejection({ marketId: 11, expiryTs: T0 - 1, amountX18: -1n, priceX18: 1n })).toBe(
      'market 11 is not active',
    );
    expect(rejection({ expiryTs: T0 - 1, amountX18: -1n })).toBe('timestamp expired');
    expect(rejection({ amountX18: -1n, priceX18: -1n })).toMatch(
      /^amount -0.000000000000000001 is off/,
    );
    expect(rejection({ amountX18: -x18('1'), priceX18: x18('1') })).toBe(
      'amount must not be negative (got -1)',
    );
    expect(rejection({ type: 'LIMIT', priceX18: 0n, amountX18: x18('0.00001') })).toBe(
      'price must be above 0 for limit order',
    );
  });

  it('lets reduce-only orders below the minimum through, and accepts the 30-day edge', () => {
    const { engine } = engineAt({ markets });
    expect(() =>
      engine.validateOrder(request({ isReduce: true, amountX18: x18('0.00001') })),
    ).not.toThrow();
    expect(() => engine.validateOrder(request({ expiryTs: T0 + 30 * DAY }))).not.toThrow();
    expect(() =>
      engine.validateOrder(
        request({ marketId: 12, type: 'LIMIT', amountX18: x18('1'), priceX18: x18('1000') }),
      ),
    ).not.toThrow();
  });

  it('placeOrder rejects with the same message and spends no order id', () => {
    const { engine } = engineAt({ markets });
    expect(() => engine.placeOrder('a', request({ marketId: 404 }))).toThrow(
      new SimRejection('market 404 not found'),
    );
    expect(engine.placeOrder('a', request()).id).toBe(1);
  });
});
