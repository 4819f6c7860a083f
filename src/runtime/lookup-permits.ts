import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import type { VenueClient } from '../venue/venue-client.ts';

/**
 * `client` with its order lookups (by venue id and by signature) under the rate budget: each
 * waits for a `lookup` permit behind the orders, for as long as `permitWait()`'s signal allows,
 * and holds it until answered. What `quanta run` and the simulator (src/simulation) both wire.
 */
export function lookupsUnderBudget(
  client: VenueClient,
  budget: Pick<RateBudget, 'take'>,
  permitWait: () => AbortSignal,
): VenueClient {
  const underPermit = async <T>(ask: () => Promise<T>): Promise<T> => {
    const permit = await budget.take('lookup', permitWait());
    try {
      return await ask();
    } finally {
      permit.release();
    }
  };
  const { findOrder } = client;
  return {
    ...client,
    getOrder: (venueOrderId, signal) => underPermit(() => client.getOrder(venueOrderId, signal)),
    ...(findOrder === undefined
      ? {}
      : { findOrder: (signature, signal) => underPermit(() => findOrder(signature, signal)) }),
  };
}
