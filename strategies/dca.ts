import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { defineStrategy, type OrderIntent } from 'quanta';

const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal string like "50"');

/**
 * Dollar-cost averaging: on the first snapshot and then every `everySnapshots` snapshots, buy
 * `quoteAmount` worth (quote units) of each configured market at market, valued at the best ask.
 */
export default defineStrategy({
  name: 'dca',
  params: z
    .object({
      quoteAmount: decimalString.default('50'),
      everySnapshots: z.number().int().positive().default(10),
    })
    .strict(),
  onSnapshot(snapshot, ctx) {
    if (snapshot.stale || (snapshot.seq - 1) % ctx.params.everySnapshots !== 0) return [];
    const intents: OrderIntent[] = [];
    for (const marketId of ctx.marketIds) {
      const bestAsk = snapshot.quotes?.get(marketId)?.asks[0];
      if (bestAsk === undefined) {
        ctx.log.debug({ marketId }, 'dca: no ask to price the purchase; skipped');
        continue;
      }
      // Rounded down to 18 digits here; the executor rounds down again to the market quantum.
      const amount = new Decimal(ctx.params.quoteAmount)
        .div(bestAsk.price)
        .toDecimalPlaces(18, Decimal.ROUND_DOWN);
      intents.push({ marketId, side: 'BUY', type: 'MARKET', amount: amount.toFixed(), tag: 'dca' });
    }
    return intents;
  },
});
