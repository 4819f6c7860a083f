import type { Market, Quote } from '../domain/index.ts';
import type { Candle } from './candle.ts';

/**
 * One immutable view of the venue at a moment: every listed market and, where the venue has
 * quotes, the top of each book. Strategies receive snapshots; they never see HTTP.
 */
export interface Snapshot {
  /** Sequence number, increasing by one per poll (starting at 1). */
  readonly seq: number;
  /** When the poll completed, in ms since the epoch (virtual time in backtests). */
  readonly takenAt: number;
  /** Markets by id. */
  readonly markets: ReadonlyMap<number, Market>;
  /** Quotes by market id; absent when the venue has no quotes extension. */
  readonly quotes?: ReadonlyMap<number, Quote>;
  /** True when this snapshot repeats the last good one because the latest poll failed. */
  readonly stale: boolean;
  /**
   * Candle history only: the candle of each market that closed at `takenAt` (its `end`). Its
   * quotes are then a book locked at the candle's close (`lockedQuote`), not a recorded book.
   */
  readonly candles?: ReadonlyMap<number, Candle>;
}

/**
 * Builds a frozen snapshot from lists (markets by id, quotes by market id). A `Map` of markets
 * is used as it is, so unchanged market sets are shared between snapshots instead of copied.
 */
export function createSnapshot(input: {
  seq: number;
  takenAt: number;
  markets: Iterable<Market> | ReadonlyMap<number, Market>;
  quotes?: Iterable<Quote> | undefined;
  stale?: boolean;
}): Snapshot {
  const markets =
    input.markets instanceof Map
      ? (input.markets as ReadonlyMap<number, Market>)
      : indexMarkets(input.markets as Iterable<Market>);
  const base = { seq: input.seq, takenAt: input.takenAt, markets, stale: input.stale ?? false };
  if (input.quotes === undefined) return Object.freeze(base);
  const quotes = new Map<number, Quote>();
  for (const quote of input.quotes) quotes.set(quote.marketId, Object.freeze(quote));
  return Object.freeze({ ...base, quotes });
}

function indexMarkets(list: Iterable<Market>): ReadonlyMap<number, Market> {
  const markets = new Map<number, Market>();
  for (const market of list) markets.set(market.id, Object.freeze(market));
  return markets;
}

/** Finds a market by its symbol (e.g. `"ETH-USD"`), or undefined. */
export function findMarketBySymbol(snapshot: Snapshot, symbol: string): Market | undefined {
  for (const market of snapshot.markets.values()) if (market.symbol === symbol) return market;
  return undefined;
}
