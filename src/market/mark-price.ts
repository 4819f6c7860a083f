import { bestPriceX18 } from './best-price.ts';
import { midPriceX18, type Quote } from '../domain/index.ts';

/**
 * The one mark-price rule: the mid of a quote's best bid and best ask, in x18 (rounded down to
 * the x18 unit), by the one mid rule `midPriceX18` (domain/mid-price.ts): undefined when either
 * side is empty, since a one-sided book's one price is no fair value (docs/figures.md). Risk
 * (daily loss), the portfolio (unrealized PnL, equity), the backtest equity curve and the
 * strategy helper `mid` all use it, so a position is never valued two ways; where a value is
 * needed at every snapshot, the last mark is held.
 *
 * @example
 * markPriceX18({ marketId: 1, timestamp: 0, bids: [{ price: '100', quantity: '1' }], asks: [{ price: '101', quantity: '1' }] })
 * // 100500000000000000000n
 */
export function markPriceX18(quote: Quote | undefined): bigint | undefined {
  const bid = bestPriceX18(quote, 'bids');
  // No bid: no mid, and the ask side is not even read (a recorded quote decodes sides lazily).
  if (bid === undefined) return undefined;
  return midPriceX18(bid, bestPriceX18(quote, 'asks'));
}
