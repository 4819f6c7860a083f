import type { OrderSide, OrderType } from '../domain/index.ts';

/**
 * What a strategy asks for. The executor sizes it to the market's quantum, checks it against
 * the market and the risk limits, and only then signs and sends it.
 *
 * @example
 * ```ts
 * const intent: OrderIntent = { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.05' };
 * ```
 */
export interface OrderIntent {
  /** The market's `id` (see `Snapshot.markets`). */
  readonly marketId: number;
  readonly side: OrderSide;
  readonly type: OrderType;
  /** Base-asset quantity as a plain decimal string; rounded down to the market's quantum. */
  readonly amount: string;
  /** Limit price as a decimal string (LIMIT only): buys rounded down, sells up, to the grid. */
  readonly price?: string;
  /** Reduce-only: may only shrink the current position (exempt from the minimum amount). */
  readonly reduceOnly?: boolean;
  /** How long the order is valid; defaults to `execution.orderTtlMs`. */
  readonly expiresInMs?: number;
  /** Free text carried into the journal and logs, e.g. `"dca"`. */
  readonly tag?: string;
}
