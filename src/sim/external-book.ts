import { parseDecimalToX18 } from '../money/index.ts';
import type { Quote, QuoteLevel } from '../domain/index.ts';
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

/**
 * Turns a recorded quote into a book made of exactly its levels (no snapping, no synthetic
 * depth). Levels are sorted best first (stable) so matching can stop at the first level that
 * does not cross, even if a recording listed them out of order.
 *
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` naming the level when a price or quantity is not
 *   a plain decimal.
 */
export function bookFromQuote(quote: Quote): Book {
  const bids = parseLevels(quote.bids, quote.marketId, 'bids');
  const asks = parseLevels(quote.asks, quote.marketId, 'asks');
  bids.sort((a, b) => (a.priceX18 === b.priceX18 ? 0 : a.priceX18 > b.priceX18 ? -1 : 1));
  asks.sort((a, b) => (a.priceX18 === b.priceX18 ? 0 : a.priceX18 < b.priceX18 ? -1 : 1));
  return { bids, asks };
}
