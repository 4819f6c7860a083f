import { EXIT_TAG_PREFIX } from '../execution/exits/exit-book.ts';
import { EXIT_REASONS, type ExitReason } from '../execution/exits/exit-rules.ts';
import type { RoundTrip } from './round-trips.ts';
import { LIQUIDATION_ORDER_ID } from './trace.ts';
import { groupClosed, groupFigures, type GroupFigures } from './trip-groups.ts';

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
export interface ExitStats extends GroupFigures {
  readonly exit: TripExit;
}

/**
 * The closed round trips grouped by what closed them (`exitOf` reads a trip's closing order),
 * in {@link TRIP_EXITS} order, only the exits that closed at least one trip.
 */
export function exitStats(
  trips: readonly RoundTrip[],
  exitOf: (trip: RoundTrip) => TripExit | null,
): ExitStats[] {
  const groups = groupClosed(trips, (trip) => exitOf(trip) ?? undefined);
  return TRIP_EXITS.flatMap((exit) => {
    const group = groups.get(exit);
    return group === undefined ? [] : [{ exit, ...groupFigures(group) }];
  });
}
