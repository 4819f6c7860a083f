import type { Quote } from '../domain/index.ts';
import { parseDecimalToX18 } from '../money/index.ts';

/**
 * A quote that knows its best prices as x18 without building its levels (a recorded quote:
 * its levels are decoded only when read, and a mark needs only the top of each side).
 */
export const BEST_PRICE_X18 = Symbol('bestPriceX18');

interface BestPriced {
  [BEST_PRICE_X18](side: 'bids' | 'asks'): bigint | undefined;
}

/**
 * The best bid or ask price of a quote as x18 (exactly `parseDecimalToX18` of its first level's
 * price), or undefined when that side is empty or there is no quote.
 */
export function bestPriceX18(quote: Quote | undefined, side: 'bids' | 'asks'): bigint | undefined {
  if (quote === undefined) return undefined;
  const fast = (quote as Partial<BestPriced>)[BEST_PRICE_X18];
  if (fast !== undefined) return fast.call(quote, side);
  const top = quote[side][0];
  return top === undefined ? undefined : parseDecimalToX18(top.price, 'quote price');
}

/**
 * A quote that can give a side's best price as a tick of its market's grid, without a bigint (a
 * recorded quote): `quote[BEST_TICK](side, out)` writes the tick and the grid's `priceExpo` into
 * `out[0]` and `out[1]` and returns true, `tickX18(out[0], out[1])` being exactly what
 * {@link bestPriceX18} gives; it returns false when only `bestPriceX18` can tell (a literal
 * price, an empty side, no grid).
 */
export const BEST_TICK = Symbol('bestTick');
