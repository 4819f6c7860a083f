import type { OrderRecord } from '../execution/order-record.ts';

/**
 * What makes a live order and a backtest order the same order: the strategy instance and the
 * intent (market, side, type, amount, price, reduce-only, tag). `quanta compare` pairs orders of
 * one snapshot by it, and gives a backtest order the latency its live twin measured by it.
 */
export function orderIntentKey(o: OrderRecord): string {
  return [
    o.strategy,
    o.marketId,
    o.side,
    o.type,
    o.amountX18,
    o.priceX18,
    o.reduceOnly,
    o.tag ?? '',
  ].join('|');
}
