import type { Logger } from '../log/logger.ts';
import type { Market, Quote } from '../domain/index.ts';
import { summarizeError } from '../errors/index.ts';
import { sameMarket } from './same-market.ts';
import { createSnapshot, type Snapshot } from './snapshot.ts';

/** Options of {@link Poller}. */
export interface PollerOptions {
  /** Lists markets (the venue client's `listMarkets`). */
  readonly fetchMarkets: (signal: AbortSignal) => Promise<Market[]>;
  /**
   * Fetches quotes (of one market when `marketId` is given); resolves `undefined` when the venue
   * has no quotes endpoint.
   */
  readonly fetchQuotes?: (signal: AbortSignal, marketId?: number) => Promise<Quote[] | undefined>;
  /**
   * The one market whose quote each poll asks for, decided before the poll from the previous
   * poll's markets (empty before the first); `undefined`: every market's. Absent: every market's.
   */
  readonly quoteScope?: (markets: ReadonlyMap<number, Market>) => number | undefined;
  readonly intervalMs: number;
  /** After this long without a good poll, a stale snapshot is emitted. */
  readonly staleAfterMs: number;
  /** Cap of the exponential backoff after failures. */
  readonly maxBackoffMs: number;
  /** The wall clock: what snapshots are stamped with (`takenAt`). */
  readonly now: () => number;
  /**
   * The monotonic clock (`Clock.monotonic`) the schedule and staleness are measured on; default
   * `now` (virtual time, where the two are one). On the wall clock, a step back during a poll
   * put the next poll off by the step's length.
   */
  readonly monotonic?: () => number;
  /** Waits between polls; injectable so tests drive time. Rejects when `signal` aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly log: Logger;
  /**
   * Takes `count` permits of the account's rate budget (one per request of the poll) without
   * waiting, or resolves `undefined`: the poll is then skipped (no request, no failure, no
   * backoff; the budget counts it). Absent: polls are not budgeted.
   */
  readonly takePermits?: (count: number) => Promise<readonly PollPermit[] | undefined>;
}

/** A rate budget permit of one poll request, released when its answer came. */
export interface PollPermit {
  release(sent?: boolean): void;
}

/**
 * Polls the venue on a schedule and turns each poll into an immutable {@link Snapshot}. Polls
 * never overlap (one loop, each poll awaited), failures back off exponentially, the last good
 * data is kept, and once it is older than `staleAfterMs` snapshots are flagged `stale`.
 */
export class Poller {
  readonly #options: PollerOptions;
  #seq = 0;
  #failures = 0;
  #quotesSupported = true;
  #lastGood: Snapshot | undefined;
  #lastGoodAt = 0;
  /** {@link lastGoodAt} on the monotonic clock: what staleness is measured from. */
  #lastGoodMono = 0;
  readonly #monotonic: () => number;
  #markets: ReadonlyMap<number, Market> = new Map();

  constructor(options: PollerOptions) {
    this.#options = options;
    this.#monotonic = options.monotonic ?? options.now;
  }

  /** When the last good poll was taken (ms), or undefined before the first one. */
  get lastGoodAt(): number | undefined {
    return this.#lastGood === undefined ? undefined : this.#lastGoodAt;
  }

  /**
   * Ms since the last good poll on the monotonic clock, or undefined before the first one: what
   * readiness and the snapshot-age metric read (the wall clock would put a poll 10 minutes ago
   * the moment it is stepped forward 10 minutes, and in the future when stepped back).
   */
  lastGoodAgeMs(): number | undefined {
    return this.#lastGood === undefined ? undefined : this.#monotonic() - this.#lastGoodMono;
  }

  /** Consecutive failed polls. */
  get failures(): number {
    return this.#failures;
  }

  /**
   * Polls once. Resolves to a fresh snapshot, to a stale one when polls failed (or were skipped
   * for want of a rate permit) for longer than `staleAfterMs`, or to `undefined` inside that
   * window.
   */
  async pollOnce(signal: AbortSignal): Promise<Snapshot | undefined> {
    const { now, log } = this.#options;
    const withQuotes = this.#quotesSupported && this.#options.fetchQuotes !== undefined;
    // Decided before any permit is taken or request started: nothing is left half begun.
    const quoteMarket = withQuotes ? this.#options.quoteScope?.(this.#markets) : undefined;
    const permits = await this.#options.takePermits?.(withQuotes ? 2 : 1);
    // No permit: skipped, not failed (orders go first); stale after staleAfterMs all the same.
    if (permits === undefined && this.#options.takePermits !== undefined) return this.#noData();
    const released = <T>(read: Promise<T>, index: number): Promise<T> =>
      read.finally(() => permits?.[index]?.release());
    try {
      const [markets, quotes] = await Promise.all([
        released(this.#options.fetchMarkets(signal), 0),
        withQuotes && this.#options.fetchQuotes !== undefined
          ? released(this.#options.fetchQuotes(signal, quoteMarket), 1)
          : Promise.resolve(undefined),
      ]);
      // Only a request for every market's quotes tells that the venue has none: a 404 for one
      // market (a venue that answers so for an id it no longer lists) says nothing of the rest.
      if (
        quotes === undefined &&
        quoteMarket === undefined &&
        this.#quotesSupported &&
        this.#options.fetchQuotes !== undefined
      ) {
        this.#quotesSupported = false;
        log.info('venue has no quotes endpoint: snapshots carry no prices');
      }
      if (this.#failures > 0) log.info({ failures: this.#failures }, 'venue polls recovered');
      this.#failures = 0;
      const snapshot = createSnapshot({
        seq: ++this.#seq,
        takenAt: now(),
        markets: this.#reuseMarkets(markets),
        quotes,
      });
      this.#lastGood = snapshot;
      this.#lastGoodAt = snapshot.takenAt;
      this.#lastGoodMono = this.#monotonic();
      return snapshot;
    } catch (error) {
      if (signal.aborted) throw error;
      this.#failures += 1;
      log.warn({ failures: this.#failures, err: summarizeError(error) }, 'venue poll failed');
      return this.#noData();
    }
  }

  /** After a failed or skipped poll: nothing, or a stale snapshot once the data is too old. */
  #noData(): Snapshot | undefined {
    const { now } = this.#options;
    const last = this.#lastGood;
    if (last === undefined || this.#monotonic() - this.#lastGoodMono <= this.#options.staleAfterMs)
      return undefined;
    return createSnapshot({
      seq: ++this.#seq,
      takenAt: now(),
      markets: last.markets,
      quotes: last.quotes?.values(),
      stale: true,
    });
  }

  /** Keeps the previous Market objects (and map) when nothing changed, so consumers can compare by reference. */
  #reuseMarkets(markets: readonly Market[]): ReadonlyMap<number, Market> {
    const previous = this.#markets;
    let unchanged = previous.size === markets.length;
    const next = new Map<number, Market>();
    for (const market of markets) {
      const before = previous.get(market.id);
      if (before !== undefined && sameMarket(before, market)) {
        next.set(market.id, before);
      } else {
        unchanged = false;
        next.set(market.id, Object.freeze(market));
      }
    }
    if (!unchanged) this.#markets = next;
    return this.#markets;
  }

  /** The wait before the next poll: the interval, or the backoff after failures. */
  nextDelayMs(): number {
    const { intervalMs, maxBackoffMs } = this.#options;
    if (this.#failures === 0) return intervalMs;
    return Math.min(maxBackoffMs, intervalMs * 2 ** Math.min(this.#failures, 16));
  }

  /**
   * Polls until `signal` aborts, handing each snapshot to `onSnapshot` and awaiting it before
   * the next poll (so a slow strategy delays polls instead of piling them up).
   */
  async run(onSnapshot: (snapshot: Snapshot) => Promise<void>, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const startedAt = this.#monotonic();
      let snapshot: Snapshot | undefined;
      try {
        snapshot = await this.pollOnce(signal);
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      if (snapshot !== undefined) await onSnapshot(snapshot);
      const wait = Math.max(0, this.nextDelayMs() - (this.#monotonic() - startedAt));
      try {
        await this.#options.sleep(wait, signal);
      } catch {
        return;
      }
    }
  }
}
