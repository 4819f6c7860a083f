import type { SimEngine } from '../sim/index.ts';
import type { AcceptedOrder } from './venue-watch.ts';

/** What the venue filled of a schedule's orders: what its mix exercised (sim-mix.ts). */
export interface FillStats {
  readonly taker: number;
  readonly maker: number;
  /** Orders filled at more than one price. */
  readonly ordersAtSeveralPrices: number;
  /** Orders that took liquidity, then rested and filled as maker. */
  readonly ordersTakerThenMaker: number;
}

/** Counts the fills of the `accepted` orders of `accountId`, as the venue's `engine` records them. */
export function fillStats(
  engine: SimEngine,
  accountId: string,
  accepted: Iterable<AcceptedOrder>,
): FillStats {
  const stats = { taker: 0, maker: 0, ordersAtSeveralPrices: 0, ordersTakerThenMaker: 0 };
  for (const { venueOrderId } of accepted) {
    const order = engine.getOrder(accountId, venueOrderId);
    if (order === undefined || order.fills.length === 0) continue;
    let took = false;
    let madeAfterTaking = false;
    for (const fill of order.fills) {
      if (fill.liquidity === 'MAKER') {
        stats.maker += 1;
        madeAfterTaking ||= took;
      } else {
        stats.taker += 1;
        took = true;
      }
    }
    const first = order.fills[0]?.priceX18;
    if (order.fills.some((fill) => fill.priceX18 !== first)) stats.ordersAtSeveralPrices += 1;
    if (madeAfterTaking) stats.ordersTakerThenMaker += 1;
  }
  return stats;
}
