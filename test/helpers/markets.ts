import type { Market } from '../../src/domain/index.ts';

/** A market value for pure tests; override what the test is about. */
export function testMarket(overrides: Partial<Market> = {}): Market {
  return {
    id: 1,
    symbol: 'ETH-USD',
    type: 'PERPETUAL',
    baseAsset: 'ETH',
    quoteAsset: 'USDC',
    amountExpo: 9,
    priceExpo: 6,
    minAmountX18: 100_000_000_000_000n,
    maxPositionValueX18: 10n ** 27n,
    makerFeeX18: 500_000_000_000_000n,
    takerFeeX18: 500_000_000_000_000n,
    initialMarginX18: 50_000_000_000_000_000n,
    maintenanceMarginX18: 20_000_000_000_000_000n,
    isActive: true,
    createdAt: '2026-01-05T00:00:00Z',
    updatedAt: '2026-01-05T00:00:00Z',
    deletedAt: null,
    ...overrides,
  };
}
