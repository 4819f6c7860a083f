/**
 * Benchmark strategies that read books and never trade: `top-of-book` reads the best bid and ask
 * (price and quantity) of every market it names, `every-level` every level of both sides. What
 * they read is counted in `globalThis.__quantaBenchLevels` (levels whose price and quantity text
 * were read), so the benchmark checks that every snapshot's books were read, not skipped.
 *
 * One module, two strategies: the config picks one with `params: { depth: "top" | "all" }`.
 */
import { z } from 'zod';
import { defineStrategy, type QuoteLevel } from 'quanta';

interface Counter {
  __quantaBenchLevels?: number;
  __quantaBenchChars?: number;
}
const counter = globalThis as Counter;

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
      chars += read(quote.bids, all ? quote.bids.length : 1);
      chars += read(quote.asks, all ? quote.asks.length : 1);
    }
    counter.__quantaBenchChars = (counter.__quantaBenchChars ?? 0) + chars;
    return [];
  },
});
