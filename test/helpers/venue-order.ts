import type { VenueOrder } from '../../src/venue/types.ts';

/** A venue's answer for tests: a filled MARKET buy of 1 unit (x18) on ETH-USD, with `overrides`. */
export function filledVenueOrder(overrides: Partial<VenueOrder> = {}): VenueOrder {
  return {
    id: 1,
    brokerId: 1,
    subaccountId: 's',
    marketSymbol: 'ETH-USD',
    marketType: 'PERPETUAL',
    side: 'BUY',
    type: 'MARKET',
    status: 'FILLED',
    amountX18: 1n,
    priceX18: 0n,
    totalFilledX18: 1n,
    expiryTs: 10_000_000,
    createdAt: '',
    updatedAt: '',
    ...overrides,
  };
}
