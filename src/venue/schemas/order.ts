import { z } from 'zod';
import { ErrorCodes } from '../../errors/index.ts';
import type { OrderStatus } from '../../domain/index.ts';
import { parseX18String } from '../../money/index.ts';
import type { OrderRequestBody, VenueOrder } from '../types.ts';
import {
  int128DecimalString,
  isCount,
  isInt128Decimal,
  isIso,
  isJsonObject,
  isoTimestamp,
  isX18,
  marketType,
  nonNegativeInteger,
  timestampMs,
  wireEnum,
  x18String,
} from './primitives.ts';
import { parseWire } from './wire-error.ts';

const UINT32_MAX = 2 ** 32 - 1;

/**
 * The order creation request body (docs/trading-service-api.md §2.4, docs/conventions.md §1 and §4): amount and price as plain
 * decimal strings (price `"0"` for MARKET), `expiryTs` in integer milliseconds. Every value is
 * signable: `marketId` fits the struct's `uint32 productId`, amount and price its `int128`.
 */
export const orderRequestBodySchema = z.object({
  marketId: nonNegativeInteger.max(UINT32_MAX, {
    error: (issue) => `expected a market id below 2^32, got ${String(issue.input)}`,
  }),
  isBuy: z.boolean(),
  orderType: wireEnum(['MARKET', 'LIMIT']),
  amount: int128DecimalString,
  price: int128DecimalString,
  expiryTs: timestampMs,
  isReduce: z.boolean(),
});

/**
 * The order of an order creation (or lookup) answer (docs/trading-service-api.md §2.5, docs/conventions.md §4.5), plus the
 * optional `avgFillPricex18` of the docs/conventions.md §6 extension.
 */
export const wireOrderSchema = z.object({
  id: nonNegativeInteger,
  brokerId: nonNegativeInteger,
  subaccountId: z.string().min(1, { error: 'expected a non-empty subaccount id' }),
  marketSymbol: z.string(),
  marketType,
  side: wireEnum(['BUY', 'SELL']),
  type: wireEnum(['MARKET', 'LIMIT']),
  status: wireEnum(['OPEN', 'PARTIAL', 'FILLED', 'CANCELLED']),
  amountx18: x18String,
  pricex18: x18String,
  totalFilledx18: x18String,
  avgFillPricex18: x18String.optional(),
  expiryTs: timestampMs,
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

/** An order in wire form. */
export type WireOrder = z.infer<typeof wireOrderSchema>;

/** An order status in wire form (docs/conventions.md §4.5). */
export type WireOrderStatus = WireOrder['status'];

// The wire's one word for "part filled, rest resting" differs from the domain's; everything else
// is spelled the same. Both directions are total, so a status never gets lost at the edge.
const STATUS_FROM_WIRE: Readonly<Record<WireOrderStatus, OrderStatus>> = {
  OPEN: 'OPEN',
  PARTIAL: 'PARTIALLY_FILLED',
  FILLED: 'FILLED',
  CANCELLED: 'CANCELLED',
};
const STATUS_TO_WIRE: Readonly<Record<OrderStatus, WireOrderStatus>> = {
  OPEN: 'OPEN',
  PARTIALLY_FILLED: 'PARTIAL',
  FILLED: 'FILLED',
  CANCELLED: 'CANCELLED',
};

/**
 * Validates an order request body (the paper venue's input, and the signer's).
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA`, e.g. `order request: amount: expected a plain
 *   non-negative decimal string with at most 18 fraction digits, got "1e-3"`.
 */
export function parseOrderRequestBody(raw: unknown): OrderRequestBody {
  return (
    checkOrderRequestBodyFast(raw) ??
    parseWire(orderRequestBodySchema, raw, {
      code: ErrorCodes.INVALID_WIRE_DATA,
      what: 'order request',
    })
  );
}

/**
 * The order request body when `raw` passes every rule of `orderRequestBodySchema` (checked by
 * hand: the body is parsed on every order by the signer, the paper venue and the backtest's
 * simulated venue, and zod's object walk costs several times this), else undefined: the caller
 * then asks the schema, which decides and words the error. Exported for the tests that hold the
 * two to the same verdicts. Keys come out in the schema's order, unknown keys dropped, as zod
 * gives them.
 */
export function checkOrderRequestBodyFast(raw: unknown): OrderRequestBody | undefined {
  if (!isJsonObject(raw)) return undefined;
  const o = raw;
  const { marketId, isBuy, orderType, amount, price, expiryTs, isReduce } = o;
  if (
    !isCount(marketId) ||
    marketId > UINT32_MAX ||
    typeof isBuy !== 'boolean' ||
    (orderType !== 'MARKET' && orderType !== 'LIMIT') ||
    !isInt128Decimal(amount) ||
    !isInt128Decimal(price) ||
    !isCount(expiryTs) ||
    typeof isReduce !== 'boolean'
  ) {
    return undefined;
  }
  return { marketId, isBuy, orderType, amount, price, expiryTs, isReduce };
}

// The rules of `wireOrderSchema`, checked by hand (an order answer is on every order's path;
// zod's object walk costs several times this). Everything here is what the schema accepts, never
// more (primitives.ts: the same patterns, safe non-negative integers, the same enums). Whatever
// fails here (or is not a plain JSON object) goes through the schema, which decides and words
// the error; the tests hold the two to the same verdicts.

/**
 * The wire order when `raw` passes every rule of `wireOrderSchema` (exported for the tests that
 * hold it to the schema), else undefined: the caller then asks the schema.
 */
export function checkWireOrderFast(raw: unknown): WireOrder | undefined {
  if (!isJsonObject(raw)) return undefined;
  const o = raw;
  const { subaccountId, marketSymbol, marketType: type, side, type: orderType, status } = o;
  if (
    !isCount(o.id) ||
    !isCount(o.brokerId) ||
    typeof subaccountId !== 'string' ||
    subaccountId.length === 0 ||
    typeof marketSymbol !== 'string' ||
    (type !== 'PERPETUAL' && type !== 'SPOT') ||
    (side !== 'BUY' && side !== 'SELL') ||
    (orderType !== 'MARKET' && orderType !== 'LIMIT') ||
    (status !== 'OPEN' && status !== 'PARTIAL' && status !== 'FILLED' && status !== 'CANCELLED') ||
    !isX18(o.amountx18) ||
    !isX18(o.pricex18) ||
    !isX18(o.totalFilledx18) ||
    (o.avgFillPricex18 !== undefined && !isX18(o.avgFillPricex18)) ||
    !isCount(o.expiryTs) ||
    !isIso(o.createdAt) ||
    !isIso(o.updatedAt)
  ) {
    return undefined;
  }
  const wire: WireOrder = {
    id: o.id,
    brokerId: o.brokerId,
    subaccountId,
    marketSymbol,
    marketType: type,
    side,
    type: orderType,
    status,
    amountx18: o.amountx18,
    pricex18: o.pricex18,
    totalFilledx18: o.totalFilledx18,
    expiryTs: o.expiryTs,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
  if (o.avgFillPricex18 !== undefined) wire.avgFillPricex18 = o.avgFillPricex18;
  return wire;
}

function orderLabel(raw: unknown): string {
  if (typeof raw === 'object' && raw !== null && 'id' in raw) {
    const id = nonNegativeInteger.safeParse(raw.id);
    if (id.success) return `order ${id.data}`;
  }
  return 'order';
}

/**
 * Parses an order from a venue answer into a `VenueOrder` with bigint x18 fields and the domain's
 * status (`PARTIAL` becomes `PARTIALLY_FILLED`).
 *
 * @throws QuantaError `QUANTA_INVALID_WIRE_DATA` naming the order id and field.
 */
export function parseVenueOrder(raw: unknown): VenueOrder {
  const wire =
    checkWireOrderFast(raw) ??
    parseWire(wireOrderSchema, raw, {
      code: ErrorCodes.INVALID_WIRE_DATA,
      what: orderLabel(raw),
    });
  const order: VenueOrder = {
    id: wire.id,
    brokerId: wire.brokerId,
    subaccountId: wire.subaccountId,
    marketSymbol: wire.marketSymbol,
    marketType: wire.marketType,
    side: wire.side,
    type: wire.type,
    status: STATUS_FROM_WIRE[wire.status],
    amountX18: parseX18String(wire.amountx18),
    priceX18: parseX18String(wire.pricex18),
    totalFilledX18: parseX18String(wire.totalFilledx18),
    expiryTs: wire.expiryTs,
    createdAt: wire.createdAt,
    updatedAt: wire.updatedAt,
  };
  return wire.avgFillPricex18 === undefined
    ? order
    : { ...order, avgFillPriceX18: parseX18String(wire.avgFillPricex18) };
}

/** The wire form of a `VenueOrder`, the inverse of `parseVenueOrder` (the paper venue answers with it). */
export function venueOrderToWire(order: VenueOrder): WireOrder {
  const wire: WireOrder = {
    id: order.id,
    brokerId: order.brokerId,
    subaccountId: order.subaccountId,
    marketSymbol: order.marketSymbol,
    marketType: order.marketType,
    side: order.side,
    type: order.type,
    status: STATUS_TO_WIRE[order.status],
    amountx18: order.amountX18.toString(),
    pricex18: order.priceX18.toString(),
    totalFilledx18: order.totalFilledX18.toString(),
    expiryTs: order.expiryTs,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
  return order.avgFillPriceX18 === undefined
    ? wire
    : { ...wire, avgFillPricex18: order.avgFillPriceX18.toString() };
}
