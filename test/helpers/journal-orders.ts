import type { NewOrder } from '../../src/execution/journal.ts';

/** A new order for journal tests (a dca buy of 0.01 ETH-USD); `signature` tells orders apart. */
export function newOrder(signature: string, overrides: Partial<NewOrder> = {}): NewOrder {
  return {
    strategy: 'dca',
    tag: 'dca',
    marketId: 1,
    symbol: 'ETH-USD',
    side: 'BUY',
    type: 'MARKET',
    amountX18: 10n ** 16n,
    priceX18: 0n,
    reduceOnly: false,
    body: '{"marketId":1}',
    signature,
    signer: '0xabc',
    expiryTs: 2000,
    referencePriceX18: 3000n * 10n ** 18n,
    ...overrides,
  };
}
