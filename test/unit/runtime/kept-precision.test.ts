import { describe, expect, it } from 'vitest';
import { OrderJournal } from '../../../src/execution/journal.ts';
import {
  keepPrecision,
  keptPrecision,
  PRECISION_SCOPE,
} from '../../../src/runtime/kept-precision.ts';
import { testMarket } from '../../helpers/markets.ts';

describe('the listed tick and quantum kept in the journal (for quanta status)', () => {
  it('keeps each market once, rewrites it only when the listing changed, and reads it back', () => {
    const journal = OrderJournal.inMemory();
    const writes: string[] = [];
    const counted = {
      kvGet: (scope: string, key: string) => journal.kvGet(scope, key),
      kvSet: (scope: string, key: string, value: string) => {
        writes.push(`${scope}/${key}`);
        journal.kvSet(scope, key, value);
      },
    };
    const eth = testMarket({ id: 1, symbol: 'ETH-USD', priceExpo: 2, amountExpo: 4 });
    const btc = testMarket({ id: 3, symbol: 'BTC-USD', priceExpo: -1, amountExpo: 5 });
    keepPrecision(counted, [eth, btc]);
    keepPrecision(counted, [eth, btc]);
    expect(writes).toEqual([`${PRECISION_SCOPE}/1`, `${PRECISION_SCOPE}/3`]);
    keepPrecision(counted, [{ ...eth, priceExpo: 3 }]);
    expect(writes).toHaveLength(3);
    expect(keptPrecision(journal, 1)).toEqual({ symbol: 'ETH-USD', priceExpo: 3, amountExpo: 4 });
    expect(keptPrecision(journal, 3)).toEqual({ symbol: 'BTC-USD', priceExpo: -1, amountExpo: 5 });
    expect(keptPrecision(journal, 7)).toBeUndefined();
  });

  it('reads a value it cannot use as none kept (status then says the tick is inferred)', () => {
    const journal = OrderJournal.inMemory();
    journal.kvSet(PRECISION_SCOPE, '1', 'not json');
    journal.kvSet(
      PRECISION_SCOPE,
      '2',
      JSON.stringify({ symbol: 'X', priceExpo: 1.5, amountExpo: 1 }),
    );
    expect(keptPrecision(journal, 1)).toBeUndefined();
    expect(keptPrecision(journal, 2)).toBeUndefined();
  });
});
