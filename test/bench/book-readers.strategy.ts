/**
 * Benchmark strategies that read books and never trade: `top-of-book` reads the best bid and ask
 * (price and quantity) of every market it names with `bestBid`/`bestAsk` (the helpers made for
 * it: `quote.bids[0]` makes the whole side first), `every-level` every level of both sides. What
 * they read is counted in `globalThis.__quantaBenchLevels` (levels whose price and quantity text
 * were read), so the benchmark checks that every snapshot's books were read, not skipped.
 *
 * One module, two strategies: the config picks one with `params: { depth: "top" | "all" }`.
 */
import { z } from 'zod';
import { bestAsk, bestBid, defineStrategy, type QuoteLevel } from 'quanta';

interface Counter {
  __quantaBenchLevels?: number;
  __quantaBenchChars?: number;
}
const counter = globalThis as Counter;

function readTop(level: QuoteLevel | undefined): number {
  if (level === undefined) return 0;
  counter.__quantaBenchLevels = (counter.__quantaBenchLevels ?? 0) + 1;
  return level.price.length + level.quantity.length;
}

function read(levels: readonly QuoteLevel[], count: number): number {
  let chars = 0;
  for (let i = 0; i < count; i++) {
    const level = levels[i];
    if (level === undefined) break;
    chars += level.price.length + level.quantity.length;
    counter.__quantaBenchLevels = (counter.__quantaBenchLevels ?? 0) + 1;
  }
  return chars;
}

export default defineStrategy({
  name: 'book-reader',
  params: z.object({ depth: z.enum(['top', 'all']) }).strict(),
  onSnapshot(snapshot, ctx) {
    const all = ctx.params.depth === 'all';
    let chars = 0;
    for (const marketId of ctx.marketIds) {
      const quote = snapshot.quotes?.get(marketId);
      if (quote === undefined) continue;
      if (!all) {
        chars += readTop(bestBid(quote)) + readTop(bestAsk(quote));
        continue;
      }
      chars += read(quote.bids, quote.bids.length);
      chars += read(quote.asks, quote.asks.length);
    }
    counter.__quantaBenchChars = (counter.__quantaBenchChars ?? 0) + chars;
    return [];
  },
});
