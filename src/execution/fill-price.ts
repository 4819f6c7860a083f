import type { OrderRecord } from './order-record.ts';

/** The price an answer's new fill is booked at, and whether the averages gave it. */
export interface FillPrice {
  readonly priceX18: bigint;
  /**
   * True when the price is the new fill's own, worked out from the averages before and after;
   * false when it is the order's average (the venue gave none, or its averages cannot give it).
   */
  readonly derived: boolean;
}

/**
 * The price at which the positions book what an order newly filled: its own price where the
 * venue's averages give it ({@link newFillPriceX18}), else the order's average after the answer.
 * The one rule for the executor's booking (execution/fill-booking.ts) and the backtest's fill
 * log (backtest/fill-log.ts), so the trades built from that log reconcile with the portfolio.
 *
 * @param before the order's journal row before the answer.
 * @param filledX18 the order's whole filled amount after it.
 * @param averageX18 the order's average fill price after it (the venue's, or an estimate).
 * @param averageReported true when `averageX18` is the venue's, not an estimate.
 */
export function fillPriceX18(
  before: OrderRecord,
  filledX18: bigint,
  averageX18: bigint,
  averageReported: boolean,
): FillPrice {
  const own = averageReported ? newFillPriceX18(before, filledX18, averageX18) : undefined;
  return own === undefined
    ? { priceX18: averageX18, derived: false }
    : { priceX18: own, derived: true };
}

/**
 * The price of what filled since the journal row's last answer, from the venue's average fill
 * price before and after (filled notional = average × filled). A LIMIT order that crossed the
 * book at once and then rested fills first at the book's prices (taker), then at its own
 * (maker): its later fills are not at the order's average. Exact when every fill was at one
 * price; with averages floored to x18 (the paper venue's) it is off by less than the earlier
 * filled amount over the new one, in x18 units of price. `undefined` when the row's average is
 * not the venue's (none yet, or estimated), nothing new filled, or the result is not positive (a
 * venue whose averages are rounded otherwise); a LIMIT order's is kept within its price.
 */
function newFillPriceX18(
  record: OrderRecord,
  filledX18: bigint,
  averageX18: bigint,
): bigint | undefined {
  const newlyFilled = filledX18 - record.filledX18;
  if (newlyFilled <= 0n) return undefined;
  if (record.filledX18 === 0n) return averageX18;
  if (record.avgFillPriceX18 === null || record.fillPriceEstimated) return undefined;
  const notionalX36 = averageX18 * filledX18 - record.avgFillPriceX18 * record.filledX18;
  const priceX18 = notionalX36 / newlyFilled;
  if (priceX18 <= 0n) return undefined;
  // No fill of a LIMIT order is beyond its price: the floors can put the result a hair past it.
  if (record.type !== 'LIMIT') return priceX18;
  if (record.side === 'BUY') return priceX18 > record.priceX18 ? record.priceX18 : priceX18;
  return priceX18 < record.priceX18 ? record.priceX18 : priceX18;
}
