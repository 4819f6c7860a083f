import { OrderJournal, type NewOrder } from '../../src/execution/journal.ts';

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

/** A closed journal of `count` orders (filled, their fees booked) with realistic bodies. */
export function writeJournal(path: string, count: number): void {
  const journal = OrderJournal.open(path);
  for (let i = 1; i <= count; i += 1) {
    const expiryTs = 1_795_435_260_000 + i;
    const body = JSON.stringify({
      marketId: 1,
      isBuy: true,
      orderType: 'MARKET',
      amount: '0.01',
      price: '0',
      expiryTs,
      isReduce: false,
    });
    const [record] = journal.insertPendingMany(
      [newOrder(`0x${i.toString(16).padStart(130, '0')}`, { body, expiryTs })],
      1_795_435_200_000 + i,
    );
    if (record === undefined) throw new Error('not journaled');
    journal.markAttempt(record.id, 1_795_435_200_001 + i);
    journal.recordOutcome(
      record.id,
      {
        state: 'FILLED',
        filledX18: record.amountX18,
        avgFillPriceX18: 3000n * 10n ** 18n,
        feesX18: 15n * 10n ** 15n,
        venueOrderId: i,
      },
      1_795_435_200_002 + i,
    );
  }
  journal.kvSet('quanta:risk', 'baseline', '{"day":"2026-11-23","equity":"1000"}');
  journal.close();
}
