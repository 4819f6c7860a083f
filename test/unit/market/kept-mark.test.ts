import { describe, expect, it } from 'vitest';
import type { QuoteLevel } from '../../../src/domain/index.ts';
import { markPriceX18 } from '../../../src/market/mark-price.ts';
import { RecordedQuote, type LevelSource } from '../../../src/market/recording/recorded-quote.ts';

/** A side whose best price is `best` (x18), counting how often it is read. */
function side(best: bigint | undefined): LevelSource & { reads: number } {
  return {
    reads: 0,
    levels: (): QuoteLevel[] => [],
    bestX18(): bigint | undefined {
      this.reads += 1;
      return best;
    },
    best: () => undefined,
    numbers: () => 0,
  };
}

describe('the mark of a recorded quote', () => {
  it('is taken once from its best prices and shared by every later reader', () => {
    const bids = side(100n * 10n ** 18n);
    const asks = side(101n * 10n ** 18n);
    const quote = new RecordedQuote(1, 0, bids, asks, 0);
    for (let i = 0; i < 3; i++) expect(markPriceX18(quote)).toBe(100_500_000_000_000_000_000n);
    expect([bids.reads, asks.reads]).toEqual([1, 1]);
  });

  it('keeps "no mark" too (an empty bid side; the asks are never read)', () => {
    const bids = side(undefined);
    const asks = side(5n);
    const quote = new RecordedQuote(1, 0, bids, asks, 0);
    expect(markPriceX18(quote)).toBeUndefined();
    expect(markPriceX18(quote)).toBeUndefined();
    expect([bids.reads, asks.reads]).toEqual([1, 0]);
  });
});
