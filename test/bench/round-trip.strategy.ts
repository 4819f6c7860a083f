import { z } from 'zod';
import { defineStrategy } from 'quanta';

/**
 * Benchmark strategy that trades at a steady rate: every `every`-th snapshot it buys `amount` of
 * its first market when flat and sells it back when long (MARKET orders), so a run of N snapshots
 * places N / `every` orders, each filled, and moves its position each time.
 */
export default defineStrategy({
  name: 'round-trip',
  params: z
    .object({
      every: z.number().int().min(1).default(100),
      amount: z.string().default('0.01'),
    })
    .strict(),
  init: () => ({ seen: 0 }),
  onSnapshot(_snapshot, ctx) {
    ctx.state.seen += 1;
    const marketId = ctx.marketIds[0];
    if (ctx.state.seen % ctx.params.every !== 0 || marketId === undefined) return [];
    const flat = ctx.position(marketId) === '0';
    return [{ marketId, side: flat ? 'BUY' : 'SELL', type: 'MARKET', amount: ctx.params.amount }];
  },
});
