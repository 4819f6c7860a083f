import { EXIT_TAG_PREFIX } from '../execution/exits/exit-book.ts';
import { EXIT_REASONS, type ExitReason } from '../execution/exits/exit-rules.ts';
import { formatX18 } from '../money/index.ts';
import { winRateOf, type RoundTrip } from './round-trips.ts';
import { LIQUIDATION_ORDER_ID } from './trace.ts';

/**
 * What closed a round trip: one of the framework's protective exits (its closing order tagged
 * `exit:<reason>`), the simulation's `liquidation` (docs/margin.md), or `strategy` for any other
 * order (the strategy's own close or flip).
 */
export type TripExit = ExitReason | 'liquidation' | 'strategy';

/** Every {@link TripExit}, in the order the report lists them. */
export const TRIP_EXITS: readonly TripExit[] = [...EXIT_REASONS, 'liquidation', 'strategy'];

const REASONS: ReadonlySet<string> = new Set(EXIT_REASONS);

/** The exit of a closing order's tag: `exit:stop-loss` → `stop-loss`; any other tag → `strategy`. */
export function tripExitOfTag(tag: string | null | undefined): TripExit {
  if (tag?.startsWith(EXIT_TAG_PREFIX) !== true) return 'strategy';
  const reason = tag.slice(EXIT_TAG_PREFIX.length);
  return REASONS.has(reason) ? (reason as ExitReason) : 'strategy';
}

/**
 * The exit of a closing fill's order: `liquidation` for the simulation's closure (order id
 * {@link LIQUIDATION_ORDER_ID}), else by the order's tag ({@link tripExitOfTag}).
 */
export function tripExitOfOrder(
  orderId: number,
  tags: ReadonlyMap<number, string | null>,
): TripExit {
  return orderId === LIQUIDATION_ORDER_ID ? 'liquidation' : tripExitOfTag(tags.get(orderId));
}

/** The closed round trips of one exit: how many, how many won, and their net PnL. */
export interface ExitStats {
  readonly exit: TripExit;
  readonly closed: number;
  readonly wins: number;
  /** By the one win-rate rule (`winRateOf`). */
  readonly winRate: string | null;
  /** Sum of their net PnL after fees, quote units. */
  readonly netPnl: string;
}

/**
 * The closed round trips grouped by what closed them (`exitOf` reads a trip's closing order),
 * in {@link TRIP_EXITS} order, only the exits that closed at least one trip.
 */
export function exitStats(
  trips: readonly RoundTrip[],
  exitOf: (trip: RoundTrip) => TripExit | null,
): ExitStats[] {
  const groups = new Map<TripExit, RoundTrip[]>();
  for (const trip of trips) {
    const exit = exitOf(trip);
    if (exit === null) continue;
    const group = groups.get(exit);
    if (group === undefined) groups.set(exit, [trip]);
    else group.push(trip);
  }
  return TRIP_EXITS.flatMap((exit) => {
    const group = groups.get(exit);
    if (group === undefined) return [];
    const won = winRateOf(group);
    const net = group.reduce((sum, trip) => sum + trip.netPnlX18, 0n);
    return [
      {
        exit,
        closed: won.closed,
        wins: won.wins,
        winRate: won.winRate,
        netPnl: formatX18(net),
      },
    ];
  });
}
