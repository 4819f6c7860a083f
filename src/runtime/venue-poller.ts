import type { Config } from '../config/index.ts';
import type { RateBudget } from '../execution/rate-budget/rate-budget.ts';
import type { Market, Quote } from '../domain/index.ts';
import type { Logger } from '../log/logger.ts';
import { Poller } from '../market/poller.ts';
import { getQuotes, listMarkets, type VenueConnection } from '../venue/endpoints/index.ts';

/**
 * The two reads a poll makes. The bot reads over HTTP ({@link httpReadTransport}); the soak
 * benchmark and tests plug in a stub so the loop runs without a network.
 */
export interface ReadTransport {
  /** The market list; rejects when `signal` aborts. */
  listMarkets(signal: AbortSignal): Promise<Market[]>;
  /** Quotes, or `undefined` when the venue has no quotes endpoint; rejects when `signal` aborts. */
  getQuotes(signal: AbortSignal): Promise<Quote[] | undefined>;
}

/**
 * Reads over HTTP. The run's own signal is passed straight through: every request already has
 * its timeout (`read.timeoutMs`) and listens to the caller's signal only until it is answered
 * (venue/http/request.ts). Combining the run signal with a fresh `AbortSignal.timeout` on every
 * poll, as this once did with `AbortSignal.any`, leaves the combined signals retained by the
 * long-lived one on Node 20: memory that grew with the length of the run.
 */
export function httpReadTransport(read: VenueConnection): ReadTransport {
  return {
    listMarkets: (signal) => listMarkets(read, { signal }),
    getQuotes: (signal) => getQuotes(read, { signal }),
  };
}

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
}

/** The poller of `config.poll` over `transport` (quotes only when `poll.quotes` is on). */
export function createVenuePoller(options: VenuePollerOptions): Poller {
  const { transport, poll, budget } = options;
  return new Poller({
    fetchMarkets: (signal) => transport.listMarkets(signal),
    ...(poll.quotes ? { fetchQuotes: (signal: AbortSignal) => transport.getQuotes(signal) } : {}),
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
