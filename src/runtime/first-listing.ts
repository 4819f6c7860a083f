import pRetry from 'p-retry';
import { summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import { VenueError } from '../venue/errors.ts';
import type { Market } from '../domain/index.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { systemSleep, systemTimeoutSignal } from '../clock/timers.ts';

const ATTEMPTS = 5;
/** The wait before the second attempt; it doubles for each later one, up to {@link MAX_BACKOFF_MS}. */
const BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 2000;
/** The longest `Retry-After` a 429 may make the first listing wait. */
const MAX_RETRY_AFTER_MS = 10_000;

/**
 * The venue's market list at start, retried briefly. A bot does not start without it: the
 * configured symbols are checked against it and recovered fills are booked with its fees
 * (an empty stand-in once booked them with no fee at all). Each attempt takes a permit of the
 * account's rate budget when given one (with an order's priority: nothing trades before it), so
 * a bot starting beside others that use the whole budget does not push the account over the
 * venue's limit. A 429 all the same (a process outside the budget) waits the venue's
 * `Retry-After` before the next try instead of spending its attempts inside the same window.
 *
 * @throws the last `VenueError` after {@link ATTEMPTS} attempts (exit 1).
 */
export async function firstListing(
  venue: Pick<VenueClient, 'listMarkets'>,
  log: Logger,
  options: {
    /** How long one attempt may take (`venue.timeoutMs`). */
    readonly timeoutMs: number;
    /**
     * Waits out a 429's `Retry-After` and the backoff between attempts; injectable so tests need
     * no real sleeps and the simulator (src/simulation) waits on virtual time. Default real.
     */
    readonly sleep?: (ms: number) => Promise<void>;
    /** The signal that ends an attempt after `ms`; default a real one (clock/timers.ts). */
    readonly timeoutSignal?: (ms: number) => AbortSignal;
    /** The account's rate budget: a permit per attempt. */
    readonly takePermit?: (signal: AbortSignal) => Promise<{ release(sent?: boolean): void }>;
  },
): Promise<Market[]> {
  const sleep = options.sleep ?? systemSleep;
  const timeoutSignal = options.timeoutSignal ?? systemTimeoutSignal;
  let tries = 0;
  const attempt = async () => {
    // The backoff waits on the injected sleep, not on p-retry's own timer (its delays are 0):
    // 250, 500, 1000, 2000 ms, as p-retry's factor 2 from 250 up to 2000 gave.
    if (tries > 0) await sleep(Math.min(BACKOFF_MS * 2 ** (tries - 1), MAX_BACKOFF_MS));
    tries += 1;
    const signal = timeoutSignal(options.timeoutMs);
    const permit = await options.takePermit?.(signal);
    try {
      return await venue.listMarkets(signal);
    } finally {
      permit?.release();
    }
  };
  return pRetry(attempt, {
    retries: ATTEMPTS - 1,
    minTimeout: 0,
    maxTimeout: 0,
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
      if (retriesLeft === 0) return;
      log.warn(
        { err: summarizeError(error), attempt: attemptNumber },
        'listing markets at start failed; retrying',
      );
      if (error instanceof VenueError && error.retryAfterMs !== undefined) {
        await sleep(Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS));
      }
    },
  });
}
