import { z } from 'zod';
import { defineStrategy } from '../strategy/define-strategy.ts';
import type { OrderIntent } from '../domain/index.ts';
import { deriveSeed, SeededRandom } from '../sim/random.ts';

/** The longest life the strategy gives an order (`expiresInMs`), in ms. */
export const MAX_EXPIRES_IN_MS = 21_500;

/**
 * The simulator's strategy: trades often, near the position limit and near expiry. Each
 * snapshot's intents come from (seed, snapshot seq) alone, so a restarted bot draws the same
 * way and a schedule replays exactly.
 */
export default defineStrategy({
  name: 'sim-trader',
  params: z
    .object({
      seed: z.number().int().nonnegative(),
      /** Most of an order's notional, in quote units (the position cap is a few of these). */
      notional: z.number().int().positive().default(1200),
    })
    .strict(),
  onSnapshot(snapshot, ctx) {
    if (snapshot.stale) return [];
    const rng = new SeededRandom(deriveSeed(ctx.params.seed, snapshot.seq));
    if (rng.nextUint32() % 100 >= 45) return [];
    const intents: OrderIntent[] = [];
    for (const marketId of ctx.marketIds) {
      const quote = snapshot.quotes?.get(marketId);
      const bid = quote?.bids[0];
      const ask = quote?.asks[0];
      if (bid === undefined || ask === undefined) continue;
      const side = rng.nextUint32() % 2 === 0 ? 'BUY' : 'SELL';
      const notional = String(200 + (rng.nextUint32() % ctx.params.notional));
      // Short lives: many orders expire while a fault holds them.
      const expiresInMs = 1500 + (rng.nextUint32() % (MAX_EXPIRES_IN_MS - 1500));
      const limit = rng.nextUint32() % 3 === 0;
      const reduceOnly = rng.nextUint32() % 5 === 0;
      const price = side === 'BUY' ? bid.price : ask.price;
      intents.push({
        marketId,
        side,
        type: limit ? 'LIMIT' : 'MARKET',
        notional,
        expiresInMs,
        ...(limit ? { price } : {}),
        ...(reduceOnly ? { reduceOnly: true } : {}),
        tag: `sim-${snapshot.seq}`,
      });
    }
    return intents;
  },
});
