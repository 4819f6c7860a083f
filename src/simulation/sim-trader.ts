import { z } from 'zod';
import { defineStrategy } from '../strategy/define-strategy.ts';
import type { ExitSpec, OrderIntent } from '../domain/index.ts';
import { deriveSeed, SeededRandom } from '../sim/random.ts';

/** The longest life the strategy gives an order (`expiresInMs`), in ms. */
export const MAX_EXPIRES_IN_MS = 21_500;

/** Exits for one entry in three (see the `exits` param), else none: two draws, or one. */
function exitsOf(rng: SeededRandom): ExitSpec | undefined {
  if (rng.nextUint32() % 3 !== 0) return undefined;
  const pick = rng.nextUint32();
  const tenths = (bits: number): string => `0.${1 + ((pick >>> bits) % 5)}%`;
  return {
    stopLoss: tenths(0),
    takeProfit: tenths(4),
    ...((pick >>> 8) % 2 === 0 ? { trailingStop: tenths(12) } : {}),
    timeLimitMs: 20_000 + ((pick >>> 16) % 100_001),
  };
}

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
      /**
       * Price most LIMIT orders through the book (the `full` mix, sim-mix.ts): one to three
       * levels deep, so that one order fills at several prices, rests what is left at its own
       * price and fills later as maker. Off: a LIMIT order rests at the best price of its side.
       */
      cross: z.boolean().default(false),
      /**
       * Protect one entry in three with exits close to the price (the `full` mix): a stop-loss
       * and a take-profit 0.1-0.5% away, in one of those two a trailing stop, and a time limit
       * of 20-120 s, so they fire within a schedule, through its faults and crash.
       */
      exits: z.boolean().default(false),
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
      if (quote === undefined || bid === undefined || ask === undefined) continue;
      const side = rng.nextUint32() % 2 === 0 ? 'BUY' : 'SELL';
      const notional = String(200 + (rng.nextUint32() % ctx.params.notional));
      // Short lives: many orders expire while a fault holds them.
      const expiresInMs = 1500 + (rng.nextUint32() % (MAX_EXPIRES_IN_MS - 1500));
      // One LIMIT order in three; when crossing, two in three.
      const limitDraw = rng.nextUint32() % 3;
      const limit = ctx.params.cross ? limitDraw !== 0 : limitDraw === 0;
      const reduceOnly = rng.nextUint32() % 5 === 0;
      let price = side === 'BUY' ? bid.price : ask.price;
      // Drawn only when full: the default mix's draws, and so its traces, stay as they were.
      if (limit && ctx.params.cross) {
        const depth = rng.nextUint32() % 4;
        const through = side === 'BUY' ? quote.asks : quote.bids;
        const level = through[Math.min(depth, through.length) - 1];
        if (depth > 0 && level !== undefined) price = level.price;
      }
      // Drawn only with exits on, as the crossing draw above.
      const exits = ctx.params.exits && !reduceOnly ? exitsOf(rng) : undefined;
      intents.push({
        marketId,
        side,
        type: limit ? 'LIMIT' : 'MARKET',
        notional,
        expiresInMs,
        ...(limit ? { price } : {}),
        ...(reduceOnly ? { reduceOnly: true } : {}),
        ...(exits === undefined ? {} : { exits }),
        tag: `sim-${snapshot.seq}`,
      });
    }
    return intents;
  },
});
