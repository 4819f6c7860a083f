import type { Quote } from './quote.ts';

/**
 * A quote that can give a side's levels as x18 numbers without decimal strings (a recorded
 * quote: its prices are integer ticks, so building each price as a string only for the
 * simulation to parse it back was most of replaying a traded book).
 */
export const QUOTE_LEVELS_X18 = Symbol('quoteLevelsX18');

interface LevelsX18 {
  [QUOTE_LEVELS_X18](side: 'bids' | 'asks'): readonly bigint[] | undefined;
}

/**
 * A side's levels as x18, in the quote's own order, flattened: price then quantity of each level
 * (exactly `parseDecimalToX18` of the level's strings). Undefined when the quote has no such
 * path, or for a side it cannot answer so (a level that is not a plain decimal): read the
 * side's `QuoteLevel`s then.
 */
export function quoteLevelsX18(quote: Quote, side: 'bids' | 'asks'): readonly bigint[] | undefined {
  const fast = (quote as Partial<LevelsX18>)[QUOTE_LEVELS_X18];
  return fast === undefined ? undefined : fast.call(quote, side);
}

/**
 * A quote that can give a side's best price by its prices alone, whatever their order, without
 * making its x18 levels (a recorded quote: a mark compares ticks, then makes one bigint).
 */
export const QUOTE_TOP_X18 = Symbol('quoteTopX18');

interface TopX18 {
  [QUOTE_TOP_X18](side: 'bids' | 'asks'): bigint | undefined | null;
}

/**
 * The highest bid price (`bids`) or the lowest ask price of a quote side as x18: exactly the
 * best price among `quoteLevelsX18`'s levels, in whatever order the quote lists them; undefined
 * for an empty side. Null when the quote has no such path, or the side holds a level
 * `quoteLevelsX18` would parse from its text (a literal price or quantity): read
 * `quoteLevelsX18` then, which also tells a malformed level.
 */
export function quoteTopX18(quote: Quote, side: 'bids' | 'asks'): bigint | undefined | null {
  const fast = (quote as Partial<TopX18>)[QUOTE_TOP_X18];
  return fast === undefined ? null : fast.call(quote, side);
}
