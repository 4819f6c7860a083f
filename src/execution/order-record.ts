import type { OrderSide, OrderState, OrderType } from '../domain/index.ts';

/** The journal's row for one order: what was asked, the exact signed bytes, and what happened. */
export interface OrderRecord {
  /** Journal id; the `orderId` that travels through logs from intent to venue answer. */
  readonly id: number;
  readonly strategy: string;
  readonly tag: string | null;
  readonly marketId: number;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly amountX18: bigint;
  readonly priceX18: bigint;
  readonly reduceOnly: boolean;
  /** The exact request body bytes that were signed and are (re)sent. */
  readonly body: string;
  readonly signature: string;
  readonly signer: string;
  readonly expiryTs: number;
  /** Best quote price when the order was sent: values a fill when the venue gives no price. */
  readonly referencePriceX18: bigint | null;
  readonly state: OrderState;
  readonly venueOrderId: number | null;
  readonly filledX18: bigint;
  readonly avgFillPriceX18: bigint | null;
  /** True when the fill price is the reference price, not one the venue reported. */
  readonly fillPriceEstimated: boolean;
  /**
   * Fees charged for this order's fills, as booked when they happened (maker or taker as the
   * fill was); null in journals written before fees were recorded.
   */
  readonly feesX18: bigint | null;
  readonly attempts: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly error: string | null;
}
