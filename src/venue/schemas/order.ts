import { z } from 'zod';
import { ErrorCodes } from '../../errors/index.ts';
import type { OrderStatus } from '../../domain/index.ts';
import { parseX18String } from '../../money/index.ts';
import type { OrderRequestBody, VenueOrder } from '../types.ts';
import {
  int128DecimalString,
  isoTimestamp,
  marketType,
  nonNegativeInteger,
  timestampMs,
  wireEnum,
  x18String,
} from './primitives.ts';
import { parseWire } from './wire-error.ts';

const UINT32_MAX = 2 ** 32 - 1;

/**
 * The order creation request body (spec §2.4, conventions §1 and §4): amount and price as plain
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
 * The order of an order creation (or lookup) answer (spec §2.5, conventions §4.5), plus the
 * optional `avgFillPricex18` of the conventions §6 extension.
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

/** An order status in wire form (conventions §4.5). */
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
  return parseWire(orderRequestBodySchema, raw, {
    code: ErrorCodes.INVALID_WIRE_DATA,
    what: 'order request',
  });
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
  const wire = parseWire(wireOrderSchema, raw, {
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
