import type { OrderRecord } from '../execution/order-record.ts';
import { orderIntentKey } from './order-intent-key.ts';

/** The latencies a live run measured, handed out to the backtest's twins of its orders. */
export interface LiveLatencies {
  /** Live orders whose latency the journal tells. */
  readonly measured: number;
  /** Their median, ms: the latency of a backtest order without a measured twin. */
  readonly medianMs: number;
  /**
   * The latency of a backtest order sent at a snapshot taken at `from`, whose live twin was
   * journaled at or after `from` and before `before` (the next snapshot): the twin's measured
   * latency (each live order is handed out once, earliest first), else the median.
   */
  latencyOf(order: OrderRecord, from: number, before: number): number;
  /** One line a person reads: what the backtest assumed. */
  describe(): string;
}

/**
 * The latency of a live order as its journal row tells it: from the row's creation to the
 * venue's first answer, for an order that this answer settled (a MARKET order, any REJECTED
 * one). A LIMIT order's last update may be a fill or a cancel long after it arrived, and an
 * order of unknown outcome was never answered: theirs is not known.
 */
export function measuredLatencyMs(order: OrderRecord): number | undefined {
  const answeredOnce =
    order.state === 'REJECTED' ||
    (order.type === 'MARKET' && (order.state === 'FILLED' || order.state === 'CANCELLED'));
  return answeredOnce && !order.fillPriceEstimated ? order.updatedAt - order.createdAt : undefined;
}

/**
 * The live run's latencies, for a backtest of its recording (`quanta compare`): each backtest
 * order arrives as late as its live twin did, so it meets the book the live order met (as
 * closely as the recording tells), instead of one snapshot later.
 *
 * @returns undefined when no live order's latency is known (no MARKET order answered).
 */
export function liveLatencies(liveOrders: readonly OrderRecord[]): LiveLatencies | undefined {
  const byKey = new Map<string, OrderRecord[]>();
  const known: number[] = [];
  for (const order of [...liveOrders].sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)) {
    const key = orderIntentKey(order);
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [order]);
    else list.push(order);
    const latency = measuredLatencyMs(order);
    if (latency !== undefined) known.push(latency);
  }
  if (known.length === 0) return undefined;
  known.sort((a, b) => a - b);
  const medianMs = known[Math.floor(known.length / 2)] as number;
  const used = new Set<OrderRecord>();
  let twinned = 0;
  let handedOut = 0;
  return {
    measured: known.length,
    medianMs,
    latencyOf(order, from, before) {
      handedOut += 1;
      const twin = byKey
        .get(orderIntentKey(order))
        ?.find((o) => !used.has(o) && o.createdAt >= from && o.createdAt < before);
      if (twin === undefined) return medianMs;
      used.add(twin);
      const latency = measuredLatencyMs(twin);
      if (latency === undefined) return medianMs;
      twinned += 1;
      return latency;
    },
    describe: () =>
      `latency: each order's as the live journal measured it (${twinned} of ${handedOut} orders; the others ${medianMs} ms, the median of ${known.length}), meeting the book of the last snapshot at or before its arrival`,
  };
}
