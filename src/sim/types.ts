import type {
  FillLiquidity,
  MarketType,
  OrderSide,
  OrderStatus,
  OrderType,
} from '../domain/index.ts';

/**
 * An order as the engine takes it: the HTTP body of docs/trading-service-api.md §2.4 already parsed (amounts and
 * prices x18, signature checked by the caller).
 */
export interface SimOrderRequest {
  readonly marketId: number;
  readonly side: OrderSide;
  readonly type: OrderType;
  /** The order size in base units x18, unsigned. */
  readonly amountX18: bigint;
  /** The limit price x18; `0n` for MARKET orders. */
  readonly priceX18: bigint;
  /** Milliseconds since the epoch; a LIMIT order rests until then. */
  readonly expiryTs: number;
  /** Reduce-only: may only shrink the current position; the excess is never filled. */
  readonly isReduce: boolean;
}

/** One fill of an order at one price. */
export interface SimFill {
  readonly priceX18: bigint;
  readonly amountX18: bigint;
  /** The fee on this fill, rounded up (see `fillFeeX18`). */
  readonly feeX18: bigint;
  readonly liquidity: FillLiquidity;
  /** When the fill happened, ms since the epoch (the engine clock). */
  readonly at: number;
}

/** An order's state as the engine reports it (a copy: later fills do not change it). */
export interface SimOrder {
  /** Sequential from 1 across all accounts. */
  readonly id: number;
  readonly accountId: string;
  readonly marketId: number;
  readonly marketSymbol: string;
  readonly marketType: MarketType;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly status: OrderStatus;
  readonly amountX18: bigint;
  /** The requested price; `0n` for MARKET orders (docs/conventions.md §4.5). */
  readonly priceX18: bigint;
  readonly totalFilledX18: bigint;
  /** Filled notional / filled amount, floored; `0n` when nothing filled (docs/conventions.md §6). */
  readonly avgFillPriceX18: bigint;
  readonly feesPaidX18: bigint;
  readonly expiryTs: number;
  readonly isReduce: boolean;
  /** ISO 8601 UTC with milliseconds, from the engine clock. */
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly fills: readonly SimFill[];
}

/** A position in one market. */
export interface SimPosition {
  readonly marketId: number;
  /** Signed base amount x18: positive long, negative short. */
  readonly amountX18: bigint;
  /** Average entry price of the open amount (floored); `0n` when flat. */
  readonly avgEntryPriceX18: bigint;
  /** PnL realised by reducing this position, before fees, floored to x18. */
  readonly realizedPnlX18: bigint;
}

/** An account's balances. */
export interface SimAccount {
  readonly accountId: string;
  /**
   * Quote units x18: the initial balance minus what buys cost, plus what sells brought, minus
   * fees. Kept exact at x36 inside; floored here.
   */
  readonly cashX18: bigint;
  readonly feesPaidX18: bigint;
  /** Sum of the positions' realised PnL, before fees, floored to x18. */
  readonly realizedPnlX18: bigint;
  /** Every market this account has traded, by market id, including flat ones. */
  readonly positions: readonly SimPosition[];
}
