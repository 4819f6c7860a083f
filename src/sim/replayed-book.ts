import { midPriceX18, quoteLevelsX18, quoteTopX18, type Quote } from '../domain/index.ts';
import type { Book } from './book-level.ts';
import { bookFromQuote, lazyBookFromQuote } from './external-book.ts';

/**
 * Replay mode's state of one market: the last external quote, and the book made of it with its
 * mid once someone needed them. Replaced in place by `replayLazily` (one object per market, not
 * one per market and step): nothing holds a ReplayedBook beyond the step, only the Book made of it.
 */
export interface ReplayedBook {
  quote: Quote;
  book: Book | null;
  /** Whether `midX18` was read for this quote. */
  midRead: boolean;
  /** The book's mid once read (`undefined` for a quote with an empty side). */
  midX18: bigint | undefined;
}

// The one mid rule (domain/mid-price.ts): a one-sided replayed book has no mid.
function bookMid(book: Book): bigint | undefined {
  return midPriceX18(book.bids[0]?.priceX18, book.asks[0]?.priceX18);
}

/**
 * The quote parsed at once, with its mid.
 *
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` for a malformed level.
 */
export function replayParsed(quote: Quote): ReplayedBook {
  const book = bookFromQuote(quote);
  return { quote, book, midRead: true, midX18: bookMid(book) };
}

/**
 * The quote kept as it is, parsed only when its book or mid is read; `kept` (the market's
 * previous replayed book) is reused when there is one.
 */
export function replayLazily(kept: ReplayedBook | null, quote: Quote): ReplayedBook {
  if (kept === null) return { quote, book: null, midRead: false, midX18: undefined };
  kept.quote = quote;
  kept.book = null;
  kept.midRead = false;
  kept.midX18 = undefined;
  return kept;
}

/** A replayed quote's book: each side parsed when first read (an order reads one side). */
export function replayedBookOf(replayed: ReplayedBook): Book {
  replayed.book ??= lazyBookFromQuote(replayed.quote);
  return replayed.book;
}

/** A replayed quote's mid by the one mid rule; `undefined` when a side is empty. */
export function replayedMidOf(replayed: ReplayedBook): bigint | undefined {
  if (replayed.midRead) return replayed.midX18;
  // The quote's x18 levels are enough: a mark (the liquidation check reads one per held market
  // every step) needs no book of level objects. Also when a book was made already (an order met
  // it): its first levels are the quote's best prices whatever the order consumed, and a market
  // first held after that order would have its other side parsed only for its best price.
  const fast = quoteMid(replayed.quote);
  replayed.midX18 = fast === null ? bookMid(replayedBookOf(replayed)) : fast;
  replayed.midRead = true;
  return replayed.midX18;
}

/**
 * The mid of a quote that gives its levels as x18 (`quoteLevelsX18`), exactly the mid of the
 * book `bookFromQuote` makes of it: that book sorts each side best first, so its first bid is the
 * highest bid price and its first ask the lowest ask price, which is what this takes. `null`
 * (the book decides, and names a malformed level) when a side has no such path.
 */
function quoteMid(quote: Quote): bigint | undefined | null {
  const bid = sideBest(quote, 'bids');
  if (bid === null) return null;
  const ask = sideBest(quote, 'asks');
  if (ask === null) return null;
  return midPriceX18(bid, ask);
}

/**
 * The highest bid or lowest ask price of a quote side as x18: from its ticks when the quote
 * compares them (`quoteTopX18`, no bigint per level), else from its x18 levels; undefined for
 * an empty side, null when neither path answers.
 */
function sideBest(quote: Quote, side: 'bids' | 'asks'): bigint | undefined | null {
  const top = quoteTopX18(quote, side);
  if (top !== null) return top;
  const levels = quoteLevelsX18(quote, side);
  return levels === undefined ? null : bestOf(levels, side === 'bids');
}

/** The highest (`highest`) or lowest price of flattened x18 levels; undefined for none. */
function bestOf(levels: readonly bigint[], highest: boolean): bigint | undefined {
  if (levels.length === 0) return undefined;
  let best = levels[0] as bigint;
  for (let i = 2; i < levels.length; i += 2) {
    const price = levels[i] as bigint;
    if (highest ? price > best : price < best) best = price;
  }
  return best;
}
