import { describe, expect, it } from 'vitest';
import type { Market } from '../../../src/domain/index.ts';
import { OrderJournal } from '../../../src/execution/journal.ts';
import { PositionBook } from '../../../src/execution/positions.ts';
import { marketsInPlay, tradedQuoteScope } from '../../../src/runtime/quote-scope.ts';
import { newOrder } from '../../helpers/journal-orders.ts';
import { testMarket } from '../../helpers/markets.ts';

const X18 = 10n ** 18n;
const eth = testMarket();
const btc = testMarket({ id: 2, symbol: 'BTC-USD', baseAsset: 'BTC' });
const listing: ReadonlyMap<number, Market> = new Map([
  [1, eth],
  [2, btc],
]);

describe('tradedQuoteScope', () => {
  it('names the one market the strategies trade once the listing has it', () => {
    const scope = tradedQuoteScope({ symbols: ['ETH-USD', 'ETH-USD'], inPlay: () => [] });
    expect(scope(listing)).toBe(1);
    // The first poll has no listing yet: every market's quotes.
    expect(scope(new Map())).toBeUndefined();
    // A listing that lacks the symbol (delisted, renamed): every market's quotes.
    expect(scope(new Map([[2, btc]]))).toBeUndefined();
  });

  it('asks for every market when the strategies trade two', () => {
    const scope = tradedQuoteScope({ symbols: ['ETH-USD', 'BTC-USD'], inPlay: () => [] });
    expect(scope(listing)).toBeUndefined();
  });

  it('asks for every market while the account is in another one, and again for one after', () => {
    let inPlay: number[] = [2];
    const scope = tradedQuoteScope({ symbols: ['ETH-USD'], inPlay: () => inPlay });
    expect(scope(listing)).toBeUndefined();
    inPlay = [1, 1];
    expect(scope(listing)).toBe(1);
    inPlay = [];
    expect(scope(listing)).toBe(1);
  });

  it('resolves the symbol again when the listing changes', () => {
    const scope = tradedQuoteScope({ symbols: ['BTC-USD'], inPlay: () => [] });
    expect(scope(listing)).toBe(2);
    const relisted = new Map([[7, { ...btc, id: 7 }]]);
    expect(scope(relisted)).toBe(7);
  });
});

describe('marketsInPlay', () => {
  it('lists markets with a position that is not flat and markets with an unfinished order', () => {
    const positions = new PositionBook();
    const journal = OrderJournal.inMemory();
    try {
      expect([...marketsInPlay(positions, journal)]).toEqual([]);
      const buy = { side: 'BUY', amountX18: X18, priceX18: 3000n * X18, feeX18: 0n } as const;
      positions.apply({ marketId: 3, ...buy });
      positions.apply({ marketId: 4, ...buy });
      positions.apply({ marketId: 4, ...buy, side: 'SELL' });
      expect([...marketsInPlay(positions, journal)]).toEqual([3]);

      const resting = journal.insertPending(newOrder('0x01', { marketId: 5 }), 1).id;
      journal.markAttempt(resting, 2);
      journal.recordOutcome(resting, { event: 'opened', venueOrderId: 9 }, 3);
      const filled = journal.insertPending(newOrder('0x02', { marketId: 6 }), 1).id;
      journal.markAttempt(filled, 2);
      expect([...marketsInPlay(positions, journal)]).toEqual([3, 5, 6]);
      journal.recordOutcome(filled, { state: 'FILLED', filledX18: X18, feesX18: 0n }, 3);
      expect([...marketsInPlay(positions, journal)]).toEqual([3, 5]);
    } finally {
      journal.close();
    }
  });
});
