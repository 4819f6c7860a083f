import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import type { VenueClient } from '../venue/venue-client.ts';

/**
 * `client` with its order lookups (by venue id and by signature) under the rate budget: each
 * waits for a `lookup` permit behind the orders, for as long as `permitWait()`'s signal allows
 * (asked for only when the lookup has to wait), and holds it until answered. What `quanta run`
 * and the simulator (src/simulation) both wire.
 */
export function lookupsUnderBudget(
  client: VenueClient,
  budget: Pick<RateBudget, 'take' | 'takeFree'>,
  permitWait: () => AbortSignal,
): VenueClient {
  const underPermit = async <T>(ask: () => Promise<T>): Promise<T> => {
    // A free slot needs no wait, and so no deadline: the wait's signal (a timer that stays
    // armed for the whole timeout) is made only when the lookup has to queue.
    const permit = await (budget.takeFree?.('lookup') ?? budget.take('lookup', permitWait()));
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
