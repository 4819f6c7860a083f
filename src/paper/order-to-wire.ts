import type { SimOrder } from '../sim/index.ts';
import { venueOrderToWire, type WireOrder } from '../venue/schemas/index.ts';
import type { VenueOrder } from '../venue/types.ts';
import type { Session } from './credential-store.ts';

/** The venue's view of an engine order (docs/trading-service-api.md §2.5 plus `avgFillPriceX18`), owned by `owner`. */
export function simOrderToVenueOrder(
  order: SimOrder,
  owner: { readonly brokerId: number; readonly subaccountId: string },
): VenueOrder {
  return {
    id: order.id,
    brokerId: owner.brokerId,
    subaccountId: owner.subaccountId,
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
  };
}

/**
 * The wire order of docs/trading-service-api.md §2.5 for an engine order, with the `avgFillPricex18` extension
 * (docs/conventions.md §6), owned by the session's broker and subaccount.
 */
export function simOrderToWire(order: SimOrder, session: Session): WireOrder {
  return venueOrderToWire(
    simOrderToVenueOrder(order, {
      brokerId: Number(session.brokerId),
      subaccountId: session.subaccountId,
    }),
  );
}
