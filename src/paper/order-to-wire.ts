import type { SimOrder } from '../sim/index.ts';
import { venueOrderToWire, type WireOrder } from '../venue/schemas/index.ts';
import type { Session } from './credential-store.ts';

/**
 * The wire order of spec §2.5 for an engine order, with the `avgFillPricex18` extension
 * (conventions §6), owned by the session's broker and subaccount.
 */
export function simOrderToWire(order: SimOrder, session: Session): WireOrder {
  return venueOrderToWire({
    id: order.id,
    brokerId: Number(session.brokerId),
    subaccountId: session.subaccountId,
    marketSymbol: order.marketSymbol,
    marketType: order.marketType,
    side: order.side,
    type: order.type,
    status: order.status,
    amountX18: order.amountX18,
    priceX18: order.priceX18,
    totalFilledX18: order.totalFilledX18,
    avgFillPriceX18: order.avgFillPriceX18,
    expiryTs: order.expiryTs,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  });
}
