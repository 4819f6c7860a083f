import type { Quote } from '../domain/index.ts';

/**
 * One imported candle (OHLCV) of one market: the span `[start, end)` and its prices and volume
 * as exact decimal strings, like quotes. Candle history (`quanta import --kind candles`) hands
 * the backtest one candle per market per snapshot, taken at the candle's `end`; strategies get
 * it as their bar directly (docs/recording-format.md, "Candle files").
 */
export interface Candle {
  readonly marketId: number;
  /** Open time, ms since the epoch. */
  readonly start: number;
  /** Close time: `start` + the candle's timeframe. */
  readonly end: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  /** The market's traded base amount in the candle, as the source gave it. */
  readonly volume: string;
}

/**
 * The quantity a candle's stand-in book shows at each price: candles say nothing about depth,
 * so a backtest on candles fills whole (the fill rule's caveat: volume does not limit a fill).
 */
export const CANDLE_BOOK_QUANTITY = '1000000000000';

/**
 * A book locked at one price (bid and ask both `price`, {@link CANDLE_BOOK_QUANTITY} each): what
 * a candle says about the market at its open, high, low or close. Its mid is the price.
 */
export function lockedQuote(marketId: number, timestamp: number, price: string): Quote {
  const level = [{ price, quantity: CANDLE_BOOK_QUANTITY }];
  return { marketId, timestamp, bids: level, asks: level };
}
