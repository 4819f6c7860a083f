import type { OrderSubmitter, SignedOrderRequest } from '../execution/dispatcher.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import { simOrderToVenueOrder } from '../paper/index.ts';
import { SimRejection, type SimEngine } from '../sim/index.ts';
import { venueErrorFromStatus } from '../venue/errors.ts';
import { parseOrderRequestBody } from '../venue/schemas/index.ts';
import type { VenueOrder } from '../venue/types.ts';

const ENDPOINT = 'SIM /api/v1/order';

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
        return Promise.resolve(
          simOrderToVenueOrder(order, { brokerId: 0, subaccountId: accountId }),
        );
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
      order === undefined
        ? undefined
        : simOrderToVenueOrder(order, { brokerId: 0, subaccountId: accountId }),
    );
  };
}
