import type { Config } from '../config/index.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import type { Logger } from '../log/logger.ts';
import { Poller, type PollerOptions } from '../market/poller.ts';
import type { VenueReads } from '../venue/venue-client.ts';

/**
 * The two reads a poll makes: over HTTP (`httpVenueReads`) or any `VenueClient`; the
 * soak benchmark and tests plug in a stub so the loop runs without a network.
 */
export type ReadTransport = VenueReads;

/** What {@link createVenuePoller} needs. */
export interface VenuePollerOptions {
  readonly transport: ReadTransport;
  readonly poll: Config['poll'];
  readonly now: () => number;
  /** Schedule and staleness (`Clock.monotonic`); default `now` (virtual time). */
  readonly monotonic?: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
  /** Every poll request takes a permit of it, or the poll is skipped (never waits). */
  readonly budget?: RateBudget;
  /** The one market each poll asks quotes of (see `PollerOptions.quoteScope`); absent: all. */
  readonly quoteScope?: PollerOptions['quoteScope'];
}

/** The poller of `config.poll` over `transport` (quotes only when `poll.quotes` is on). */
export function createVenuePoller(options: VenuePollerOptions): Poller {
  const { transport, poll, budget } = options;
  return new Poller({
    fetchMarkets: (signal) => transport.listMarkets(signal),
    ...(poll.quotes
      ? {
          fetchQuotes: (signal: AbortSignal, marketId?: number) =>
            transport.getQuotes(signal, marketId),
        }
      : {}),
    ...(options.quoteScope === undefined ? {} : { quoteScope: options.quoteScope }),
    intervalMs: poll.intervalMs,
    staleAfterMs: poll.staleAfterMs,
    maxBackoffMs: poll.maxBackoffMs,
    now: options.now,
    ...(options.monotonic === undefined ? {} : { monotonic: options.monotonic }),
    sleep: options.sleep,
    log: options.log.child({ part: 'poller' }),
    ...(budget === undefined
      ? {}
      : { takePermits: (count: number) => budget.tryTake('poll', count) }),
  });
}
