import { formatX18 } from '../money/index.ts';
import { tradeStats, winRateOf, type RoundTrip, type TradeStats } from './round-trips.ts';

/** The closed round trips of one group: how many, how many won, and their net PnL. */
export interface GroupFigures {
  readonly closed: number;
  readonly wins: number;
  /** By the one win-rate rule (`winRateOf`). */
  readonly winRate: string | null;
  /** Sum of their net PnL after fees, quote units. */
  readonly netPnl: string;
}

/** {@link GroupFigures} of the closed trips among `trips`. */
export function groupFigures(trips: readonly RoundTrip[]): GroupFigures {
  const won = winRateOf(trips);
  let net = 0n;
  for (const trip of trips) if (trip.exitTime !== null) net += trip.netPnlX18;
  return { closed: won.closed, wins: won.wins, winRate: won.winRate, netPnl: formatX18(net) };
}

/** The closed trips by `keyOf` (undefined leaves the trip out), each group in trip order. */
export function groupClosed<K>(
  trips: readonly RoundTrip[],
  keyOf: (trip: RoundTrip) => K | undefined,
): Map<K, RoundTrip[]> {
  const groups = new Map<K, RoundTrip[]>();
  for (const trip of trips) {
    if (trip.exitTime === null) continue;
    const key = keyOf(trip);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [trip]);
    else group.push(trip);
  }
  return groups;
}

/** The closed round trips of one entry tag. */
export interface TagStats extends GroupFigures {
  /** The tag of the order that opened them (`intent.tag`); null for untagged orders. */
  readonly tag: string | null;
}

/**
 * The closed round trips grouped by the tag of the order that opened them (`tagOf` reads an
 * order's tag): tags in alphabetical order, the untagged last.
 */
export function tagStats(
  trips: readonly RoundTrip[],
  tagOf: (orderId: number) => string | null | undefined,
): TagStats[] {
  const groups = groupClosed(trips, (trip) => tagOf(trip.entryOrderId) ?? null);
  const tags = [...groups.keys()].filter((tag): tag is string => tag !== null).sort();
  return [...tags, ...(groups.has(null) ? [null] : [])].map((tag) => ({
    tag,
    ...groupFigures(groups.get(tag) ?? []),
  }));
}

/** Trade statistics of the long and of the short round trips apart. */
export interface DirectionStats {
  readonly long: TradeStats;
  readonly short: TradeStats;
}

/** {@link tradeStats} of the long trips and of the short ones. */
export function directionStats(trips: readonly RoundTrip[]): DirectionStats {
  return {
    long: tradeStats(trips.filter((t) => t.direction === 'LONG')),
    short: tradeStats(trips.filter((t) => t.direction === 'SHORT')),
  };
}
