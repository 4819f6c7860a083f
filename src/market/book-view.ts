import type { Quote, QuoteLevel } from '../domain/index.ts';

/**
 * A quote that can give a side's best level without building the side (a recorded quote: its
 * sides are ticks and quantity units until read).
 */
export const BEST_LEVEL = Symbol('bestLevel');

/** A quote that can give a side's levels as numbers without building its strings. */
export const LEVEL_NUMBERS = Symbol('levelNumbers');

interface BookViews {
  [BEST_LEVEL](side: 'bids' | 'asks'): QuoteLevel | undefined;
  [LEVEL_NUMBERS](side: 'bids' | 'asks', into: Float64Array): number;
}

/**
 * The best level of a quote's side (the same strings as `quote[side][0]`), or undefined when the
 * side is empty or there is no quote. A recorded quote gives it without building the side's other
 * levels, which `quote.bids[0]` builds.
 */
export function bestLevel(quote: Quote | undefined, side: 'bids' | 'asks'): QuoteLevel | undefined {
  if (quote === undefined) return undefined;
  const fast = (quote as Partial<BookViews>)[BEST_LEVEL];
  return fast === undefined ? quote[side][0] : fast.call(quote, side);
}

/**
 * Writes a quote side's levels into `into` as numbers (price then quantity of each level, best
 * first), as many as fit, and returns how many levels were written (0 for no quote).
 */
export function levelNumbers(
  quote: Quote | undefined,
  side: 'bids' | 'asks',
  into: Float64Array,
): number {
  if (quote === undefined) return 0;
  const fast = (quote as Partial<BookViews>)[LEVEL_NUMBERS];
  return fast === undefined ? numbersOf(quote[side], into) : fast.call(quote, side, into);
}

/** `levels` as numbers into `into` (see {@link levelNumbers}), read from their strings. */
export function numbersOf(levels: readonly QuoteLevel[], into: Float64Array): number {
  const count = Math.min(levels.length, Math.floor(into.length / 2));
  for (let i = 0; i < count; i++) {
    const level = levels[i] as QuoteLevel;
    into[2 * i] = Number(level.price);
    into[2 * i + 1] = Number(level.quantity);
  }
  return count;
}
