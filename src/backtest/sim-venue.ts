import { parseDecimalToX18 } from '../money/index.ts';
import { simOrderToVenueOrder } from '../paper/index.ts';
import { SimRejection, type SimEngine } from '../sim/index.ts';
import { venueErrorFromStatus } from '../venue/errors.ts';
import { parseOrderRequestBody } from '../venue/schemas/index.ts';
import type { VenueOrder } from '../venue/types.ts';
import type { SignedOrderRequest, VenueClient } from '../venue/venue-client.ts';

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
 * The simulation engine as a {@link VenueClient}, in-process and without latency: the same
 * engine the paper venue serves over HTTP. Each order is placed the moment it is sent; markets,
 * quotes and order lookups (docs/conventions.md §6 extension) are the engine's.
 */
export function simVenueClient(engine: SimEngine, accountId: string): VenueClient {
  return {
    listMarkets: () => Promise.resolve(engine.listMarkets()),
    getQuotes: (_signal, marketId) => Promise.resolve(engine.quotes(marketId)),
    createOrder(request: SignedOrderRequest): Promise<VenueOrder> {
      try {
        return Promise.resolve(placeSignedOrder(engine, accountId, request));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    register: () =>
      Promise.reject(
        venueErrorFromStatus({
          status: 400,
          endpoint: 'SIM /api/v1/auth',
          venueMessage:
            'registration: the simulated account needs no credentials (its orders are not verified)',
        }),
      ),
    getOrder(venueOrderId) {
      const order = engine.getOrder(accountId, venueOrderId);
      return Promise.resolve(
        order === undefined
          ? undefined
          : simOrderToVenueOrder(order, { brokerId: 0, subaccountId: accountId }),
      );
    },
  };
}
