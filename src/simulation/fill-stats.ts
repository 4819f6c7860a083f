import type { SimEngine } from '../sim/index.ts';
import type { AcceptedOrder } from './venue-watch.ts';

/** What the venue filled of a schedule's orders in one market: what its mix exercised (sim-mix.ts). */
export interface FillStats {
  /** Fills that took liquidity. */
  readonly taker: number;
  /** Fills that made liquidity (a resting order's). */
  readonly maker: number;
  /** Orders filled at more than one price. */
  readonly ordersAtSeveralPrices: number;
  /** Orders that took liquidity, then rested and filled as maker. */
  readonly ordersTakerThenMaker: number;
}

/**
 * Counts the fills of the `accepted` orders of `accountId`, as the venue's `engine` records
 * them, by market id (a market with no order accepted is absent).
 */
export function fillStats(
  engine: SimEngine,
  accountId: string,
  accepted: Iterable<AcceptedOrder>,
): Readonly<Record<number, FillStats>> {
  const byMarket: Record<number, FillStats> = {};
  for (const { venueOrderId } of accepted) {
    const order = engine.getOrder(accountId, venueOrderId);
    if (order === undefined) continue;
    const stats = (byMarket[order.marketId] ??= {
      taker: 0,
      maker: 0,
      ordersAtSeveralPrices: 0,
      ordersTakerThenMaker: 0,
    });
    let { taker, maker } = stats;
    let took = false;
    let madeAfterTaking = false;
    for (const fill of order.fills) {
      if (fill.liquidity === 'MAKER') {
        maker += 1;
        madeAfterTaking ||= took;
      } else {
        taker += 1;
        took = true;
      }
    }
    const first = order.fills[0]?.priceX18;
    const severalPrices = order.fills.some((fill) => fill.priceX18 !== first);
    byMarket[order.marketId] = {
      taker,
      maker,
      ordersAtSeveralPrices: stats.ordersAtSeveralPrices + (severalPrices ? 1 : 0),
      ordersTakerThenMaker: stats.ordersTakerThenMaker + (madeAfterTaking ? 1 : 0),
    };
  }
  return byMarket;
}
