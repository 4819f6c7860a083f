import type { OrderSide } from './order-terms.ts';
import type { OrderStatus } from './order-state.ts';

/** An order of this strategy that is resting on the venue. */
export interface OpenOrder {
  readonly orderId: number;
  readonly marketId: number;
  readonly side: OrderSide;
  /** Decimal strings, as in intents. */
  readonly amount: string;
  readonly price: string;
  readonly filled: string;
  readonly status: OrderStatus | 'PENDING' | 'SENT';
}
