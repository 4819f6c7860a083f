import { bestPriceX18 } from './best-price.ts';
import type { Quote } from '../domain/index.ts';

/**
 * The one mark-price rule: the mid of the best bid and best ask, in x18 (rounded down to the
 * x18 unit), or undefined when either side is empty. Risk (daily loss), the portfolio
 * (unrealized PnL, equity), the backtest equity curve and the strategy helper `mid` all use it,
 * so a position is never valued two ways.
 *
 * @example
 * markPriceX18({ marketId: 1, timestamp: 0, bids: [{ price: '100', quantity: '1' }], asks: [{ price: '101', quantity: '1' }] })
 * // 100500000000000000000n
 */
export function markPriceX18(quote: Quote | undefined): bigint | undefined {
  const bid = bestPriceX18(quote, 'bids');
  if (bid === undefined) return undefined;
  const ask = bestPriceX18(quote, 'asks');
  return ask === undefined ? undefined : (bid + ask) / 2n;
}
