import { midPriceX18, type Quote } from '../domain/index.ts';
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
  /** The book's mid once read (`{ x18: undefined }` for a quote with an empty side). */
  mid: { readonly x18: bigint | undefined } | null;
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
  return { quote, book, mid: { x18: bookMid(book) } };
}

/**
 * The quote kept as it is, parsed only when its book or mid is read; `kept` (the market's
 * previous replayed book) is reused when there is one.
 */
export function replayLazily(kept: ReplayedBook | null, quote: Quote): ReplayedBook {
  if (kept === null) return { quote, book: null, mid: null };
  kept.quote = quote;
  kept.book = null;
  kept.mid = null;
  return kept;
}

/** A replayed quote's book: each side parsed when first read (an order reads one side). */
export function replayedBookOf(replayed: ReplayedBook): Book {
  replayed.book ??= lazyBookFromQuote(replayed.quote);
  return replayed.book;
}

/** A replayed quote's mid by the one mid rule; `undefined` when a side is empty. */
export function replayedMidOf(replayed: ReplayedBook): bigint | undefined {
  replayed.mid ??= { x18: bookMid(replayedBookOf(replayed)) };
  return replayed.mid.x18;
}
