import type { OrderSide, OrderType } from './order-terms.ts';

/**
 * Protective exits of a position, managed by the framework (the venue has only MARKET and LIMIT
 * orders, so they are emulated): evaluated on every snapshot against the price a closing order
 * would get (the best bid for a long, the best ask for a short) and sent as a reduce-only MARKET
 * order of the strategy's whole position, tagged `exit:<reason>`. A price level is absolute
 * (`"2950"`) or a percentage of the average entry price (`"1.5%"`).
 *
 * @example
 * ```ts
 * const exits: ExitSpec = { stopLoss: '1.5%', takeProfit: '3%', timeLimitMs: 3_600_000 };
 * ```
 */
export interface ExitSpec {
  /** Closes when the price reaches this level against the position (`"2950"` or `"1.5%"`). */
  readonly stopLoss?: string;
  /** Closes when the price reaches this level in the position's favour. */
  readonly takeProfit?: string;
  /**
   * Closes when the price falls back this far from the best price since the position opened
   * (a distance: `"30"`, or `"2%"` of that best price).
   */
  readonly trailingStop?: string;
  /** Closes this long after the position opened (the first snapshot that saw it open). */
  readonly timeLimitMs?: number;
}

/**
 * What a strategy asks for. The executor sizes it to the market's quantum, checks it against
 * the market and the risk limits, and only then signs and sends it.
 *
 * The size is given one of three ways (exactly one): `amount` (base units), `notional` (quote
 * value) or `risk` (a fraction of equity at risk over `stopDistance`). The framework converts
 * the last two to an amount at the price the order is valued at (its LIMIT price on the grid,
 * else the best ask for a buy and the best bid for a sell), rounded **down** to the amount
 * quantum, in exact integers.
 *
 * @example
 * ```ts
 * const byAmount: OrderIntent = { marketId: 1, side: 'BUY', type: 'MARKET', amount: '0.05' };
 * const byValue: OrderIntent = { marketId: 1, side: 'BUY', type: 'MARKET', notional: '250' };
 * // Lose at most 1 % of equity if the price moves 40 against the position:
 * const byRisk: OrderIntent = { marketId: 1, side: 'BUY', type: 'MARKET', risk: '0.01', stopDistance: '40' };
 * ```
 */
export interface OrderIntent {
  /** The market's `id` (see `Snapshot.markets`). */
  readonly marketId: number;
  readonly side: OrderSide;
  readonly type: OrderType;
  /** Base-asset quantity as a plain decimal string; rounded down to the market's quantum. */
  readonly amount?: string;
  /**
   * Quote value to trade instead of an `amount` (`"250"` buys 250 USD worth): the amount is
   * `notional / price` at the price the order is valued at, rounded down to the quantum.
   */
  readonly notional?: string;
  /**
   * Fraction of the account's equity (`ctx.equity()`) to lose if the price moves `stopDistance`
   * against the position (`"0.01"` = 1 %): the amount is `equity × risk / stopDistance`, rounded
   * down to the quantum. Refused (`NO_EQUITY`) where the equity is not known (no `risk.capital`
   * live). Needs `stopDistance`.
   */
  readonly risk?: string;
  /** Price distance to the stop, in quote units per base unit (for `risk` sizing). */
  readonly stopDistance?: string;
  /** Limit price as a decimal string (LIMIT only): buys rounded down, sells up, to the grid. */
  readonly price?: string;
  /**
   * Reduce-only: may only shrink the current position (exempt from the minimum amount). Its
   * amount is capped to the position (with the same side's orders in flight counted), so it
   * never opens or flips one.
   */
  readonly reduceOnly?: boolean;
  /** How long the order is valid; defaults to `execution.orderTtlMs`. */
  readonly expiresInMs?: number;
  /** Free text carried into the journal and logs, e.g. `"dca"`. */
  readonly tag?: string;
  /**
   * Protective exits for the position this order opens (replacing any set before); they wait
   * for the position and end when it is flat again. See {@link ExitSpec}.
   */
  readonly exits?: ExitSpec;
}
