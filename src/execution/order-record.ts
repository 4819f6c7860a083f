import type { OrderSide, OrderStatus, OrderType } from '../venue/types.ts';

/** Life of a journaled order (DESIGN "Core types"). */
// ACCEPTED extends DESIGN's list: the venue answered 409 "signature already used" to a retry, so an
// earlier attempt landed, but its answer (order id, fill) never reached us.
export type OrderState = 'PENDING' | 'SENT' | OrderStatus | 'ACCEPTED' | 'REJECTED' | 'UNKNOWN';

/** States after which nothing more will happen to an order. */
export const FINAL_STATES: ReadonlySet<OrderState> = new Set([
  'FILLED',
  'CANCELLED',
  'ACCEPTED',
  'REJECTED',
  'UNKNOWN',
]);

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
  readonly attempts: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly error: string | null;
}
