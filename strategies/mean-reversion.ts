import { z } from 'zod';
import {
  RollingWindow,
  absAmount,
  defineStrategy,
  fixedX18,
  midX18,
  parseDecimalToX18,
  positionX18,
  toX18,
  type OrderIntent,
} from 'quanta';

interface Limits {
  readonly entryX18: bigint;
  readonly exitX18: bigint;
  readonly orderX18: bigint;
  readonly maxX18: bigint;
}

const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal string like "0.01"');

/**
 * Mean reversion on the quoted mid: keeps a rolling window of mids per market and computes the
 * z-score of the latest mid against the window's mean. Above `entryZ` it sells, below `-entryZ`
 * it buys (one `orderAmount` per snapshot, never beyond `maxPosition` either way); once the
 * z-score is back within `exitZ` it closes the position with a reduce-only order.
 *
 * All in exact x18 bigints through the strategy helpers (`RollingWindow` compares the z-score
 * with a threshold without a division or a square root), so nothing is rounded on the way.
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
    return { mids: new Map<number, RollingWindow>(), limits: undefined as Limits | undefined };
  },
  onSnapshot(snapshot, ctx) {
    if (snapshot.stale) return [];
    const { window, orderAmount } = ctx.params;
    const { mids } = ctx.state;
    // The params as x18, once.
    const { entryX18, exitX18, orderX18, maxX18 } = (ctx.state.limits ??= {
      entryX18: toX18(ctx.params.entryZ),
      exitX18: toX18(ctx.params.exitZ),
      orderX18: parseDecimalToX18(ctx.params.orderAmount, 'orderAmount'),
      maxX18: parseDecimalToX18(ctx.params.maxPosition, 'maxPosition'),
    });
    const intents: OrderIntent[] = [];
    for (const marketId of ctx.marketIds) {
      const mid = midX18(snapshot.quotes?.get(marketId));
      if (mid === undefined) continue;
      let recent = mids.get(marketId);
      if (recent === undefined) mids.set(marketId, (recent = new RollingWindow(window)));
      recent.push(mid);
      if (!recent.full || recent.flat) continue;

      // Drawn on this market's price chart in the backtest report.
      const symbol = snapshot.markets.get(marketId)?.symbol;
      if (symbol !== undefined)
        ctx.plot(`${symbol}:mean`, fixedX18(recent.sumX18, 8, BigInt(recent.count)));
      const held = ctx.position(marketId);
      const position = positionX18(held);

      if (
        position !== 0n &&
        recent.compareZ(mid, exitX18) <= 0 &&
        recent.compareZ(mid, -exitX18) >= 0
      ) {
        intents.push({
          marketId,
          side: position > 0n ? 'SELL' : 'BUY',
          type: 'MARKET',
          amount: absAmount(held),
          reduceOnly: true,
          tag: 'mr-exit',
        });
      } else if (recent.compareZ(mid, entryX18) > 0 && position - orderX18 >= -maxX18) {
        intents.push({
          marketId,
          side: 'SELL',
          type: 'MARKET',
          amount: orderAmount,
          tag: 'mr-entry',
        });
      } else if (recent.compareZ(mid, -entryX18) < 0 && position + orderX18 <= maxX18) {
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
