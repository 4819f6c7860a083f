import pRetry from 'p-retry';
import { summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import { listMarkets, type VenueConnection } from '../venue/endpoints/index.ts';
import type { Market } from '../domain/index.ts';

const ATTEMPTS = 3;

/**
 * The venue's market list at start, retried briefly. A bot does not start without it: the
 * configured symbols are checked against it and recovered fills are booked with its fees
 * (an empty stand-in once booked them with no fee at all).
 *
 * @throws the last `VenueError` after {@link ATTEMPTS} attempts (exit 1).
 */
export async function firstListing(read: VenueConnection, log: Logger): Promise<Market[]> {
  return pRetry(() => listMarkets(read, { signal: AbortSignal.timeout(read.timeoutMs) }), {
    retries: ATTEMPTS - 1,
    minTimeout: 250,
    maxTimeout: 2000,
    onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
      if (retriesLeft > 0)
        log.warn(
          { err: summarizeError(error), attempt: attemptNumber },
          'listing markets at start failed; retrying',
        );
    },
  });
}
