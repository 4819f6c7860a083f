import { fillPriceX18 } from '../execution/fill-price.ts';
import type { OrderJournal } from '../execution/journal.ts';
import { RepeatedValues } from '../execution/journal-row.ts';
import type { FillEvent } from './trace.ts';

/**
 * The journal the backtest hands to the trading stack, unchanged, except that every outcome it
 * records that fills more of an order is also noted as a fill: the new amount, at the price and
 * fee the executor booked it at (its own price where the averages give it, else the order's
 * average: execution/fill-price.ts; the fee it charged), at that time. These are exactly the
 * fills the portfolio applied, so trades built from them reconcile with it.
 */
export function journalWithFillLog(journal: OrderJournal, fills: FillEvent[]): OrderJournal {
  // A run keeps every fill: their amounts and prices mostly repeat (one copy of each).
  const repeated = new RepeatedValues();
  const recordOutcome: OrderJournal['recordOutcome'] = (id, outcome, now) => {
    const before = journal.get(id);
    const after = journal.recordOutcome(id, outcome, now);
    const amountX18 = after.filledX18 - before.filledX18;
    if (amountX18 > 0n && after.avgFillPriceX18 !== null) {
      fills.push({
        orderId: id,
        strategy: after.strategy,
        marketId: after.marketId,
        side: after.side,
        amountX18: repeated.one(amountX18),
        priceX18: repeated.one(
          fillPriceX18(before, after.filledX18, after.avgFillPriceX18, !after.fillPriceEstimated)
            .priceX18,
        ),
        feeX18: repeated.one((after.feesX18 ?? 0n) - (before.feesX18 ?? 0n)),
        t: now,
      });
    }
    return after;
  };
  // Methods run on the journal itself (its private fields are not on the proxy), bound once.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(journal, {
    get(target, property) {
      if (property === 'recordOutcome') return recordOutcome;
      const known = bound.get(property);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, method);
      return method;
    },
  });
}
