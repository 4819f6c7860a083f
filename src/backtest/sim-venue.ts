import type { OrderSubmitter, SignedOrderRequest } from '../execution/dispatcher.ts';
import { parseDecimalToX18 } from '../money/index.ts';
import { simOrderToVenueOrder } from '../paper/index.ts';
import { SimRejection, type SimEngine } from '../sim/index.ts';
import { venueErrorFromStatus } from '../venue/errors.ts';
import { parseOrderRequestBody } from '../venue/schemas/index.ts';
import type { VenueOrder } from '../venue/types.ts';

const ENDPOINT = 'SIM /api/v1/order';

/**
 * Places signed order bytes on the engine now: parsed exactly as the paper venue parses them,
 * the engine's refusals turned into the same 400 `VenueError`s, so the executor takes the same
 * paths.
 *
 * @throws VenueError (400) for an order the engine refuses.
 */
export function placeSignedOrder(
  engine: SimEngine,
  accountId: string,
  request: SignedOrderRequest,
): VenueOrder {
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
    return simOrderToVenueOrder(order, { brokerId: 0, subaccountId: accountId });
  } catch (error) {
    if (error instanceof SimRejection) throw simVenueError(error.shortMessage);
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/** The 400 answer of the in-process venue, as the HTTP venue would give it. */
export function simVenueError(message: string): Error {
  return venueErrorFromStatus({ status: 400, endpoint: ENDPOINT, venueMessage: message });
}

/**
 * The backtest's venue without latency: the same simulation engine the paper venue serves,
 * called in-process; each order is placed the moment it is sent.
 */
export function simOrderSubmitter(engine: SimEngine, accountId: string): OrderSubmitter {
  return {
    submit(request: SignedOrderRequest): Promise<VenueOrder> {
      try {
        return Promise.resolve(placeSignedOrder(engine, accountId, request));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}

/** Order lookup against the engine (docs/conventions.md §6 extension, in-process). */
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
