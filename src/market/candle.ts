import { QUOTE_LEVELS_X18, type Quote, type QuoteLevel } from '../domain/index.ts';
import { parseDecimalToX18, X18_SCALE } from '../money/index.ts';
import { BEST_PRICE_X18 } from './best-price.ts';

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

/** A candle's prices and volume as x18 (exactly `parseDecimalToX18` of its strings). */
export interface CandleX18 {
  readonly open: bigint;
  readonly high: bigint;
  readonly low: bigint;
  readonly close: bigint;
  readonly volume: bigint;
}

/** Where a candle read from a candle file keeps its values as x18 (see {@link withX18}). */
const CANDLE_X18 = Symbol('candleX18');

/**
 * Keeps a candle's values as x18 beside it (a candle file's reader parses them once): the
 * backtest's stand-in books and the bars then read them (`candleX18`) rather than parse the
 * strings again each. Not enumerable, so a copy, a comparison or `JSON.stringify` sees the
 * {@link Candle} alone. Returns the candle.
 */
export function withX18(candle: Candle, x18: CandleX18): Candle {
  Object.defineProperty(candle, CANDLE_X18, { value: x18 });
  return candle;
}

/** A candle's values as x18: those kept by {@link withX18}, or parsed from its strings. */
export function candleX18(candle: Candle): CandleX18 {
  const kept = (candle as { readonly [CANDLE_X18]?: CandleX18 })[CANDLE_X18];
  if (kept !== undefined) return kept;
  return {
    open: parseDecimalToX18(candle.open),
    high: parseDecimalToX18(candle.high),
    low: parseDecimalToX18(candle.low),
    close: parseDecimalToX18(candle.close),
    volume: parseDecimalToX18(candle.volume),
  };
}

/**
 * The quantity a candle's stand-in book shows at each price: candles say nothing about depth,
 * so a backtest on candles fills whole (the fill rule's caveat: volume does not limit a fill).
 */
export const CANDLE_BOOK_QUANTITY = '1000000000000';
const CANDLE_BOOK_QUANTITY_X18 = 1_000_000_000_000n * X18_SCALE;

/**
 * A book locked at one price whose x18 value is known: the simulation and the mark read it
 * without parsing the price string back (four of them per candle in a backtest).
 */
class LockedQuote implements Quote {
  readonly marketId: number;
  readonly timestamp: number;
  readonly bids: readonly QuoteLevel[];
  readonly asks: readonly QuoteLevel[];
  readonly #levelsX18: readonly bigint[];

  constructor(marketId: number, timestamp: number, price: string, priceX18: bigint) {
    this.marketId = marketId;
    this.timestamp = timestamp;
    const level = [{ price, quantity: CANDLE_BOOK_QUANTITY }];
    this.bids = level;
    this.asks = level;
    this.#levelsX18 = [priceX18, CANDLE_BOOK_QUANTITY_X18];
  }

  [BEST_PRICE_X18](): bigint {
    return this.#levelsX18[0] as bigint;
  }

  [QUOTE_LEVELS_X18](): readonly bigint[] {
    return this.#levelsX18;
  }
}

/**
 * A book locked at one price (bid and ask both `price`, {@link CANDLE_BOOK_QUANTITY} each): what
 * a candle says about the market at its open, high, low or close. Its mid is the price.
 *
 * @param priceX18 - `price` as x18 when the caller has it (then nothing parses the string).
 */
export function lockedQuote(
  marketId: number,
  timestamp: number,
  price: string,
  priceX18?: bigint,
): Quote {
  if (priceX18 !== undefined) return new LockedQuote(marketId, timestamp, price, priceX18);
  const level = [{ price, quantity: CANDLE_BOOK_QUANTITY }];
  return { marketId, timestamp, bids: level, asks: level };
}
