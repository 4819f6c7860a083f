import { UNFINISHED_STATES, type Market } from '../domain/index.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { PositionBook } from '../execution/positions.ts';

/** What {@link tradedQuoteScope} reads. */
export interface TradedQuoteScopeOptions {
  /** Every strategy's markets (`strategies[].markets`), by symbol. */
  readonly symbols: readonly string[];
  /** The markets the account is in: a position or an unfinished order (see {@link marketsInPlay}). */
  readonly inPlay: () => Iterable<number>;
}

/**
 * `poll.quoteMarkets: traded`: the one market a poll asks quotes of (`GET /quotes?marketId=`),
 * when the strategies' markets and the markets the account is in are one and the same market;
 * otherwise `undefined`, every market's quotes (the venue takes one `marketId` per request, and
 * one request for all costs a poll no more permits than one for one).
 *
 * Also `undefined` while a strategy's symbol is not in the previous poll's listing (the first
 * poll has none), so a market's first quote does not wait for its id. A market the venue lists
 * again under another id has no quote in the one poll that still asks for the old id.
 *
 * @example
 * const scope = tradedQuoteScope({ symbols: ['ETH-USD'], inPlay: () => [] });
 * scope(new Map([[1, ethUsd], [2, btcUsd]])); // 1
 */
export function tradedQuoteScope(
  options: TradedQuoteScopeOptions,
): (markets: ReadonlyMap<number, Market>) => number | undefined {
  const symbols = [...new Set(options.symbols)];
  // The poller hands the same map while the listing is unchanged: resolve the symbols once per map.
  let resolvedFor: ReadonlyMap<number, Market> | undefined;
  let resolved: number | undefined;
  return (markets) => {
    if (markets !== resolvedFor) {
      resolvedFor = markets;
      resolved = onlyMarketOf(symbols, markets);
    }
    const only = resolved;
    if (only === undefined) return undefined;
    for (const marketId of options.inPlay()) if (marketId !== only) return undefined;
    return only;
  };
}

/** The id of the one market `symbols` name in `markets`, or undefined (none, several, unlisted). */
function onlyMarketOf(
  symbols: readonly string[],
  markets: ReadonlyMap<number, Market>,
): number | undefined {
  if (symbols.length !== 1) return undefined;
  let found: number | undefined;
  for (const market of markets.values()) {
    if (market.symbol !== symbols[0]) continue;
    if (found !== undefined) return undefined;
    found = market.id;
  }
  return found;
}

/**
 * The markets the account is in: a position that is not flat, or an order that is not final
 * (resting, in flight, or with an unknown outcome). A journal that writes answers the orders
 * from memory, so a poll can ask this every time.
 */
export function* marketsInPlay(positions: PositionBook, journal: OrderJournal): Iterable<number> {
  for (const [marketId, position] of positions.sortedEntries())
    if (position.amountX18 !== 0n) yield marketId;
  for (const order of journal.inStates(UNFINISHED_STATES)) yield order.marketId;
}
