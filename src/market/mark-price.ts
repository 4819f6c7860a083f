import { bestPriceX18 } from './best-price.ts';
import { midPriceX18, type Quote } from '../domain/index.ts';

/**
 * A quote that keeps its mark once taken (a recorded quote: it never changes). In a backtest the
 * strategy's `mid`, the pre-trade checks (daily PnL, margin) and the equity curve each ask the
 * mark of the same quotes at the same snapshot; the quote answers all of them with one.
 */
export const KEPT_MARK = Symbol('keptMark');

interface KeptMark {
  [KEPT_MARK](): bigint | undefined;
}

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
  const kept = (quote as Partial<KeptMark> | undefined)?.[KEPT_MARK];
  return kept === undefined ? takeMarkX18(quote) : kept.call(quote);
}

/** {@link markPriceX18} taken from the quote's best prices: what a `KEPT_MARK` quote keeps. */
export function takeMarkX18(quote: Quote | undefined): bigint | undefined {
  const bid = bestPriceX18(quote, 'bids');
  // No bid: no mid, and the ask side is not even read (a recorded quote decodes sides lazily).
  if (bid === undefined) return undefined;
  return midPriceX18(bid, bestPriceX18(quote, 'asks'));
}
