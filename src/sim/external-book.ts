import { parseDecimalToX18 } from '../money/index.ts';
import { quoteLevelsX18, type Quote, type QuoteLevel } from '../domain/index.ts';
import type { Book, BookLevel } from './book-level.ts';

function parseLevels(
  levels: readonly QuoteLevel[],
  marketId: number,
  side: 'bids' | 'asks',
): BookLevel[] {
  return levels.map((level, index) => {
    try {
      return {
        priceX18: parseDecimalToX18(level.price),
        remainingX18: parseDecimalToX18(level.quantity),
      };
    } catch {
      // Parsed again naming the level (the labels are built only for a malformed one).
      const what = `quote ${marketId} ${side}[${index}]`;
      return {
        priceX18: parseDecimalToX18(level.price, `${what}.price`),
        remainingX18: parseDecimalToX18(level.quantity, `${what}.quantity`),
      };
    }
  });
}

// Price and quantity pairs as a quote hands them over without strings (see quoteLevelsX18).
function levelsFromX18(x18: readonly bigint[]): BookLevel[] {
  const levels = new Array<BookLevel>(x18.length / 2);
  for (let i = 0; i < levels.length; i++) {
    levels[i] = { priceX18: x18[2 * i] as bigint, remainingX18: x18[2 * i + 1] as bigint };
  }
  return levels;
}

/**
 * Turns a recorded quote into a book made of exactly its levels (no snapping, no synthetic
 * depth). Levels are sorted best first (stable) so matching can stop at the first level that
 * does not cross, even if a recording listed them out of order.
 *
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` naming the level when a price or quantity is not
 *   a plain decimal.
 */
export function bookFromQuote(quote: Quote): Book {
  return { bids: sideFromQuote(quote, 'bids'), asks: sideFromQuote(quote, 'asks') };
}

/**
 * {@link bookFromQuote} with each side parsed (and checked) only when first read, then kept: an
 * order reads the side it trades against, so the other side of the quote is never decoded. The
 * same levels in the same order as the eager form.
 *
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` from the read of a side with a malformed level.
 */
export function lazyBookFromQuote(quote: Quote): Book {
  return new LazyBook(quote);
}

// A class rather than an object literal with getters, which V8 (Node 20) builds many times
// slower: one is made per replayed quote an order, a resting order or a mark reads.
class LazyBook implements Book {
  readonly #quote: Quote;
  #bids: BookLevel[] | undefined;
  #asks: BookLevel[] | undefined;

  constructor(quote: Quote) {
    this.#quote = quote;
  }

  get bids(): BookLevel[] {
    this.#bids ??= sideFromQuote(this.#quote, 'bids');
    return this.#bids;
  }

  get asks(): BookLevel[] {
    this.#asks ??= sideFromQuote(this.#quote, 'asks');
    return this.#asks;
  }
}

function sideFromQuote(quote: Quote, side: 'bids' | 'asks'): BookLevel[] {
  const x18 = quoteLevelsX18(quote, side);
  const levels =
    x18 === undefined ? parseLevels(quote[side], quote.marketId, side) : levelsFromX18(x18);
  // A venue sends its levels best first, so they are nearly always in order already: checked in
  // one pass, sorted (stable, so equal prices keep their order) only when they are not.
  if (!bestFirst(levels, side === 'bids')) {
    if (side === 'bids')
      levels.sort((a, b) => (a.priceX18 === b.priceX18 ? 0 : a.priceX18 > b.priceX18 ? -1 : 1));
    else levels.sort((a, b) => (a.priceX18 === b.priceX18 ? 0 : a.priceX18 < b.priceX18 ? -1 : 1));
  }
  return levels;
}

/** Whether every level's price is no better than the one before it (bids falling, asks rising). */
function bestFirst(levels: readonly BookLevel[], bids: boolean): boolean {
  for (let i = 1; i < levels.length; i++) {
    const before = (levels[i - 1] as BookLevel).priceX18;
    const price = (levels[i] as BookLevel).priceX18;
    if (bids ? price > before : price < before) return false;
  }
  return true;
}
