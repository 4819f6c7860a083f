import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { defineStrategy, type OrderIntent } from 'quanta';

const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal string like "0.01"');

/**
 * Mean reversion on the quoted mid: keeps a rolling window of mids per market and computes the
 * z-score of the latest mid against the window's mean. Above `entryZ` it sells, below `-entryZ`
 * it buys (one `orderAmount` per snapshot, never beyond `maxPosition` either way); once the
 * z-score is back within `exitZ` it closes the position with a reduce-only order.
 */
export default defineStrategy({
  name: 'mean-reversion',
  params: z
    .object({
      window: z.number().int().min(2).default(20),
      entryZ: z.number().positive().default(2),
      exitZ: z.number().nonnegative().default(0.5),
      orderAmount: decimalString.default('0.01'),
      maxPosition: decimalString.default('0.05'),
    })
    .strict()
    .refine((p) => p.exitZ < p.entryZ, { message: 'exitZ must be below entryZ', path: ['exitZ'] }),
  init() {
    return { mids: new Map<number, Decimal[]>() };
  },
  onSnapshot(snapshot, ctx) {
    if (snapshot.stale) return [];
    const { window, entryZ, exitZ, orderAmount, maxPosition } = ctx.params;
    const intents: OrderIntent[] = [];
    for (const marketId of ctx.marketIds) {
      const quote = snapshot.quotes?.get(marketId);
      const bid = quote?.bids[0];
      const ask = quote?.asks[0];
      if (bid === undefined || ask === undefined) continue;
      const mid = new Decimal(bid.price).plus(ask.price).div(2);
      const mids = ctx.state.mids.get(marketId) ?? [];
      mids.push(mid);
      if (mids.length > window) mids.shift();
      ctx.state.mids.set(marketId, mids);
      if (mids.length < window) continue;

      const mean = Decimal.sum(...mids).div(mids.length);
      const variance = Decimal.sum(...mids.map((m) => m.minus(mean).pow(2))).div(mids.length);
      if (variance.isZero()) continue;
      const z = mid.minus(mean).div(variance.sqrt());
      // Drawn on this market's price chart in the backtest report.
      const symbol = snapshot.markets.get(marketId)?.symbol;
      if (symbol !== undefined) ctx.plot(`${symbol}:mean`, mean.toFixed(8));
      const position = new Decimal(ctx.position(marketId));

      if (z.abs().lte(exitZ) && !position.isZero()) {
        intents.push({
          marketId,
          side: position.isPositive() ? 'SELL' : 'BUY',
          type: 'MARKET',
          amount: position.abs().toFixed(),
          reduceOnly: true,
          tag: 'mr-exit',
        });
      } else if (z.gt(entryZ) && position.minus(orderAmount).gte(new Decimal(maxPosition).neg())) {
        intents.push({
          marketId,
          side: 'SELL',
          type: 'MARKET',
          amount: orderAmount,
          tag: 'mr-entry',
        });
      } else if (z.lt(-entryZ) && position.plus(orderAmount).lte(maxPosition)) {
        intents.push({
          marketId,
          side: 'BUY',
          type: 'MARKET',
          amount: orderAmount,
          tag: 'mr-entry',
        });
      }
    }
    return intents;
  },
});
