import { fillFeeX18 } from '../money/index.ts';
import {
  INITIAL_ORDER_STATE,
  isOrderStatus,
  transition,
  type FillLiquidity,
  type Market,
  type OrderEvent,
  type OrderState,
  type OrderStatus,
} from '../domain/index.ts';
import type { AccountLedger } from './ledger.ts';
import type { SimFill, SimOrder, SimOrderRequest } from './types.ts';

/** An order the engine holds: the request (its market resolved), its fills so far and its state. */
export interface BookedOrder extends Omit<SimOrderRequest, 'marketId'> {
  readonly id: number;
  readonly accountId: string;
  readonly market: Market;
  readonly createdAt: string;
  /** What may fill at all: the amount, or for reduce-only the part that reduced at placement. */
  readonly capacityX18: bigint;
  /** Changed only through the domain's `transition`, like every order state. */
  status: OrderState;
  totalFilledX18: bigint;
  filledNotionalX36: bigint;
  feesPaidX18: bigint;
  updatedAt: string;
  readonly fills: SimFill[];
}

/** The order's id, the ledger of the account placing it, and its market. */
export interface Placement {
  readonly id: number;
  readonly ledger: AccountLedger;
  readonly market: Market;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/**
 * A new order that has reached the venue at `at` (an ISO timestamp) and has not filled yet.
 * A reduce-only order may fill at most what reduces the account's position now.
 */
export function newBookedOrder(
  placement: Placement,
  request: SimOrderRequest,
  at: string,
): BookedOrder {
  const { ledger, market } = placement;
  return {
    id: placement.id,
    accountId: ledger.accountId,
    market,
    side: request.side,
    type: request.type,
    amountX18: request.amountX18,
    priceX18: request.priceX18,
    expiryTs: request.expiryTs,
    isReduce: request.isReduce,
    createdAt: at,
    capacityX18: request.isReduce
      ? min(request.amountX18, ledger.reducibleX18(market.id, request.side))
      : request.amountX18,
    // The order has reached the venue; its first fills decide what it becomes.
    status: transition(INITIAL_ORDER_STATE, 'sent'),
    totalFilledX18: 0n,
    filledNotionalX36: 0n,
    feesPaidX18: 0n,
    updatedAt: at,
    fills: [],
  };
}

/** One fill of an order: what it took, at which price, as maker or taker, and when. */
export interface OrderFill {
  readonly amountX18: bigint;
  readonly priceX18: bigint;
  readonly liquidity: FillLiquidity;
  readonly at: number;
  /** `at` as an ISO timestamp. */
  readonly atIso: string;
}

/** Books a fill into the order and its account's ledger, charged the market's maker or taker fee. */
export function fillOrder(order: BookedOrder, ledger: AccountLedger, fill: OrderFill): void {
  const { amountX18, priceX18, liquidity, at } = fill;
  const fraction = liquidity === 'TAKER' ? order.market.takerFeeX18 : order.market.makerFeeX18;
  const feeX18 = fillFeeX18(amountX18, priceX18, fraction);
  ledger.applyFill(order.market.id, order.side, amountX18, priceX18, feeX18);
  order.totalFilledX18 += amountX18;
  order.filledNotionalX36 += amountX18 * priceX18;
  order.feesPaidX18 += feeX18;
  order.updatedAt = fill.atIso;
  order.fills.push({ priceX18, amountX18, feeX18, liquidity, at });
}

/** What the venue reports about an order after its fills so far. */
export function settledEvent(order: BookedOrder): OrderEvent {
  const filled = order.totalFilledX18;
  if (filled === order.amountX18) return 'filled';
  // A MARKET order is immediate-or-cancel; a reduce-only one stops once it reduced all it could.
  if (order.type === 'MARKET' || filled === order.capacityX18) return 'cancelled';
  return filled > 0n ? 'partiallyFilled' : 'opened';
}

/** The order's state as a venue status; every order is settled before anyone sees it. */
function reportedStatus(order: BookedOrder): OrderStatus {
  if (isOrderStatus(order.status)) return order.status;
  throw new Error(`unreachable: order ${order.id} is ${order.status}, not yet settled`);
}

/** The order as the engine reports it: a copy that later fills do not change. */
export function orderView(order: BookedOrder): SimOrder {
  const filled = order.totalFilledX18;
  return {
    id: order.id,
    accountId: order.accountId,
    marketId: order.market.id,
    marketSymbol: order.market.symbol,
    marketType: order.market.type,
    side: order.side,
    type: order.type,
    status: reportedStatus(order),
    amountX18: order.amountX18,
    priceX18: order.priceX18,
    totalFilledX18: filled,
    avgFillPriceX18: filled === 0n ? 0n : order.filledNotionalX36 / filled,
    feesPaidX18: order.feesPaidX18,
    expiryTs: order.expiryTs,
    isReduce: order.isReduce,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    fills: [...order.fills],
  };
}
