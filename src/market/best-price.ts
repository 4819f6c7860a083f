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
