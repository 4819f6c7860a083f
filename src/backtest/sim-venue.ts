import type { OrderSubmitter, SignedOrderRequest } from '../execution/dispatcher.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import { SimRejection, type SimEngine, type SimOrder } from '../sim/index.ts';
import { venueErrorFromStatus } from '../venue/errors.ts';
import { parseOrderRequestBody } from '../venue/schemas/index.ts';
import type { VenueOrder } from '../venue/types.ts';

const ENDPOINT = 'SIM /api/v1/order';

/** The venue's view of a simulated order (what the HTTP venue would answer). */
export function simOrderToVenueOrder(order: SimOrder, subaccountId: string): VenueOrder {
  return {
    id: order.id,
    brokerId: 0,
    subaccountId,
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
 * The backtest's venue: the same simulation engine the paper venue serves, called in-process.
 * The signed bytes are parsed exactly as the paper venue parses them, and the engine's
 * refusals come back as the same 400 `VenueError`s, so the executor takes the same paths.
 */
export function simOrderSubmitter(engine: SimEngine, accountId: string): OrderSubmitter {
  return {
    submit(request: SignedOrderRequest): Promise<VenueOrder> {
      try {
        const body = parseOrderRequestBody(JSON.parse(request.body));
        const order = engine.placeOrder(accountId, {
          marketId: body.marketId,
          side: body.isBuy ? 'BUY' : 'SELL',
          type: body.orderType,
          amountX18: parseDecimalToX18(body.amount),
          priceX18: parseDecimalToX18(body.price),
          expiryTs: body.expiryTs,
          isReduce: body.isReduce,
        });
        return Promise.resolve(simOrderToVenueOrder(order, accountId));
      } catch (error) {
        if (error instanceof SimRejection) {
          return Promise.reject(
            venueErrorFromStatus({
              status: 400,
              endpoint: ENDPOINT,
              venueMessage: error.shortMessage,
            }),
          );
        }
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}

/** Order lookup against the engine (conventions §6 extension, in-process). */
export function simOrderLookup(
  engine: SimEngine,
  accountId: string,
): (venueOrderId: number) => Promise<VenueOrder | undefined> {
  return (venueOrderId) => {
    const order = engine.getOrder(accountId, venueOrderId);
    return Promise.resolve(
      order === undefined ? undefined : simOrderToVenueOrder(order, accountId),
    );
  };
}
