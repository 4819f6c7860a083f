import type { OrderSide } from './order-terms.ts';

/**
 * Whether a fill took liquidity from the book (taker, at once) or was a resting order's fill
 * (maker). Fees depend on it, so it is recorded with the fill rather than guessed later.
 */
export type FillLiquidity = 'TAKER' | 'MAKER';

/** A fill of one of this strategy's orders, passed to `onFill`. */
export interface Fill {
  readonly orderId: number;
  readonly marketId: number;
  readonly side: OrderSide;
  /** Filled quantity of this event (decimal string). */
  readonly amount: string;
  /**
   * The average price of this event's quantity (decimal string): from the venue's average fill
   * price of the order before and after it, so a resting order's later fill is at the price it
   * was made at, not at the order's average.
   */
  readonly price: string;
  /** True when the venue gave no fill price and the quote at send time is used instead. */
  readonly priceEstimated: boolean;
  readonly tag: string | null;
}
