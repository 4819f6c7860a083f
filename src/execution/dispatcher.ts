import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import pRetry, { AbortError, type Options as PRetryOptions } from 'p-retry';
import { ErrorCodes, isQuantaError, QuantaError, summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import type { VenueOrder } from '../venue/types.ts';
import type { VenueClient } from '../venue/venue-client.ts';
import { AbortableSends } from './abortable-sends.ts';
import { LocalRateBudget } from './rate-budget/local-rate-budget.ts';
import { unlimitedBudget, type RateBudget } from './rate-budget/rate-budget.ts';
import { judgeFailedAttempt, pauseAllSendersMs, type AttemptVerdict } from './retry-policy.ts';

const DEFAULT_EXPIRY_MARGIN_MS = 100;

export type { SignedOrderRequest } from '../venue/venue-client.ts';
import type { SignedOrderRequest } from '../venue/venue-client.ts';
import { systemBackgroundTimer, type StartTimer } from '../clock/timers.ts';

/**
 * Where orders go: the venue client's one write (`VenueClient.createOrder`: HTTP live and
 * paper, the simulation in backtests).
 */
export type OrderSubmitter = Pick<VenueClient, 'createOrder'>;

/**
 * How a dispatch ended. `unsent`: expired before any attempt of this dispatch, or its last
 * attempt never left the process (the registry's `not-sent`); `interrupted`:
 * shutdown aborted it (the journal keeps it SENT, the next start resends the same bytes).
 */
export type DispatchResult =
  | { readonly kind: 'placed'; readonly order: VenueOrder; readonly attempts: number }
  | {
      readonly kind: Exclude<AttemptVerdict, 'retry'> | 'unsent' | 'interrupted';
      readonly error: unknown;
      readonly attempts: number;
    };

/** One dispatch's tries (p-retry calls) and attempts (sends that left the process). */
interface AttemptCount {
  tries: number;
  attempts: number;
}

/** One dispatch: its order and its counts, what each try reads. */
interface Dispatch extends AttemptCount {
  readonly orderId: number;
  readonly request: SignedOrderRequest;
  readonly expiryTs: number;
}

/** Options of {@link Dispatcher}. */
export interface DispatcherOptions {
  readonly submitter: OrderSubmitter;
  /**
   * The account's rate budget, shared with the bot's polls and lookups (and, through Redis,
   * with other processes). Absent: a local budget of `requests` per `perMs` for orders alone
   * (`Infinity` requests: unlimited), closed by {@link Dispatcher.drain}.
   */
  readonly budget?: RateBudget;
  /** Sends allowed per window (`execution.rateLimit.requests`) when no `budget` is given. */
  readonly requests: number;
  /** The window in ms (`execution.rateLimit.perMs`) when no `budget` is given. */
  readonly perMs: number;
  readonly concurrency: number;
  /** Attempts per order, the first included. */
  readonly maxAttempts: number;
  /** The wall clock: what an order's `expiryTs` is compared with. */
  readonly now: () => number;
  /**
   * The monotonic clock (`Clock.monotonic`) 429 pauses and the own budget's slots are measured
   * on; default `now` (virtual time, where the two are one).
   */
  readonly monotonic?: () => number;
  /** Waits `ms` (429 pauses); injectable so tests need no real sleeps. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Starts the drain's deadline timer (`drain`); default a real one that does not hold the
   * process (clock/timers.ts). The simulator (src/simulation) gives its virtual timers.
   */
  readonly startTimer?: StartTimer;
  /** First retry backoff in ms (doubles each retry, capped at 8×). */
  readonly backoffMs?: number;
  /** Added to `perMs` after an answer when no `budget` is given (see `LocalRateBudget`). */
  readonly windowGuardMs?: number;
  readonly log: Logger;
  /** Called before every attempt (the journal counts it). */
  readonly onAttempt?: (orderId: number, attempt: number) => void;
  /**
   * An attempt is not started unless it can reach the venue this long before the order's
   * `expiryTs` (the request still has to cross the network). Default 100.
   */
  readonly expiryMarginMs?: number;
}

/**
 * Sends signed orders through one queue (p-queue, `concurrency`) and retries with p-retry by
 * resending **the identical bytes** (docs/design.md §4 rule 4). A 429 pauses the whole queue
 * for the venue's `Retry-After`, and the rate budget with it (every process, when shared).
 *
 * Every attempt takes an `order` permit of the rate budget when it may start and releases it
 * after its answer; the budget holds the slot until `perMs` after that answer (see
 * `LocalRateBudget` for why).
 */
export class Dispatcher {
  readonly #options: DispatcherOptions;
  readonly #queue: PQueue;
  /** Set when the queue has no concurrency limit: sends then skip it (see {@link AbortableSends}). */
  readonly #unqueued: AbortableSends | undefined;
  readonly #budget: RateBudget;
  /** Whether the budget is this dispatcher's own (closed by drain) or the bot's. */
  readonly #ownsBudget: boolean;
  readonly #abort = new AbortController();
  /** Until when a 429 pauses sending, on the monotonic clock. */
  #pausedUntil = 0;
  readonly #monotonic: () => number;
  #inFlight = new Set<Promise<DispatchResult>>();

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#monotonic = options.monotonic ?? options.now;
    // Every queued, in-flight or slot-holding order listens to these (and stops when it is
    // done): a burst of more than ten is normal, not the leak Node warns about at eleven.
    setMaxListeners(0, this.#abort.signal);
    this.#queue = new PQueue({ concurrency: options.concurrency });
    this.#unqueued =
      options.concurrency === Number.POSITIVE_INFINITY
        ? new AbortableSends(this.#abort.signal)
        : undefined;
    this.#ownsBudget = options.budget === undefined;
    // Infinity requests = no rate limit (backtests run on virtual time).
    this.#budget =
      options.budget ??
      (Number.isFinite(options.requests)
        ? new LocalRateBudget({
            requests: options.requests,
            perMs: options.perMs,
            countPolls: false,
            ...(options.windowGuardMs === undefined ? {} : { guardMs: options.windowGuardMs }),
            now: this.#monotonic,
            sleep: options.sleep,
          })
        : unlimitedBudget());
  }

  /** Orders being sent or waiting to be. */
  get pending(): number {
    return this.#inFlight.size;
  }

  /**
   * Sends one journaled order until it is placed, refused, known to have landed, or may no
   * longer be retried. Never throws.
   */
  dispatch(
    orderId: number,
    request: SignedOrderRequest,
    expiryTs: number,
  ): Promise<DispatchResult> {
    const run = this.#run(orderId, request, expiryTs);
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
    return run;
  }

  async #run(
    orderId: number,
    request: SignedOrderRequest,
    expiryTs: number,
  ): Promise<DispatchResult> {
    const signal = this.#abort.signal;
    const dispatch: Dispatch = { orderId, request, expiryTs, tries: 0, attempts: 0 };
    try {
      const order =
        this.#options.maxAttempts === 1
          ? await this.#once(dispatch, signal)
          : await pRetry(
              () => this.#try(dispatch, signal),
              this.#retryOptions(orderId, expiryTs, dispatch, signal),
            );
      return { kind: 'placed', order, attempts: dispatch.attempts };
    } catch (error) {
      return this.#failed(error, dispatch.attempts, expiryTs, signal);
    }
  }

  /**
   * What p-retry does with no retry allowed (`maxAttempts` 1: backtests), step for step: the
   * signal checked before and after the one try, a failure normalized as p-retry does and given
   * to {@link #onFailedAttempt}, then thrown. Without p-retry's copy and checks of its options and
   * its frozen context per order (a backtest that trades every few snapshots sends thousands).
   */
  async #once(dispatch: Dispatch, signal: AbortSignal): Promise<VenueOrder> {
    signal.throwIfAborted();
    try {
      const order = await this.#try(dispatch, signal);
      signal.throwIfAborted();
      return order;
    } catch (error) {
      const normalized =
        error instanceof Error
          ? error
          : new TypeError(
              `Non-error was thrown: "${String(error)}". You should only throw errors.`,
            );
      if (normalized instanceof AbortError) throw normalized.originalError;
      await this.#onFailedAttempt(dispatch.orderId, normalized, dispatch, signal);
      throw normalized;
    }
  }

  /** One try of p-retry: its backoff, then the send through the queue, a permit and the pause. */
  async #try(dispatch: Dispatch, signal: AbortSignal): Promise<VenueOrder> {
    // The backoff between tries waits on the injected sleep, not on p-retry's own timer (its
    // delays are 0): the simulator (src/simulation) runs it on virtual time. 250, 500, 1000,
    // 2000 ms by default, as p-retry's factor 2 gave.
    const backoffMs = this.#options.backoffMs ?? 250;
    if (dispatch.tries > 0)
      await this.#options.sleep(
        Math.min(backoffMs * 2 ** (dispatch.tries - 1), backoffMs * 8),
        signal,
      );
    dispatch.tries += 1;
    this.#checkExpiry(dispatch.orderId, dispatch.expiryTs);
    await this.#waitOutPause(signal);
    // A queue without a concurrency limit admits every send at once (backtests): the send goes
    // straight to its permit instead of through the queue's bookkeeping.
    return await (this.#unqueued === undefined
      ? this.#queue.add(() => this.#send(dispatch, signal), { signal })
      : this.#unqueued.run(this.#send(dispatch, signal)));
  }

  /** The send of one try, once the queue admits it: a permit, the pause, then the venue. */
  #send(dispatch: Dispatch, signal: AbortSignal): Promise<VenueOrder> {
    const { orderId, request, expiryTs } = dispatch;
    return this.#withPermit(async () => {
      // A 429 may have paused sending while this waited for its slot.
      await this.#waitOutPause(signal);
      // Checked again at the moment of sending, after the queue, the rate slot and any
      // pause: nothing leaves after its expiry, and a dead order frees its slot.
      this.#checkExpiry(orderId, expiryTs);
      dispatch.attempts += 1;
      this.#options.onAttempt?.(orderId, dispatch.attempts);
      return this.#options.submitter.createOrder(request, signal);
    });
  }

  /** p-retry's options for one dispatch: what is retried (the registry), and 429 pauses. */
  #retryOptions(
    orderId: number,
    expiryTs: number,
    count: AttemptCount,
    signal: AbortSignal,
  ): PRetryOptions {
    const { maxAttempts, now } = this.#options;
    return {
      // Every option p-retry reads is given, its defaults included (factor, maxRetryTime,
      // shouldConsumeRetry): it copies the options and fills in the missing ones, and an object
      // grown after a spread costs V8 (Node 20) some 10 µs, on every order.
      retries: maxAttempts - 1,
      factor: 2,
      minTimeout: 0,
      maxTimeout: 0,
      maxRetryTime: Number.POSITIVE_INFINITY,
      randomize: false,
      shouldConsumeRetry: () => true,
      signal,
      shouldRetry: ({ error }) =>
        judgeFailedAttempt({
          error,
          attempt: count.attempts,
          maxAttempts,
          now: now(),
          expiryTs,
        }) === 'retry',
      onFailedAttempt: ({ error }) => this.#onFailedAttempt(orderId, error, count, signal),
    };
  }

  /** After a failed try: logged, and a 429 pauses every sender (and the budget). */
  async #onFailedAttempt(
    orderId: number,
    error: Error,
    count: AttemptCount,
    signal: AbortSignal,
  ): Promise<void> {
    this.#options.log.warn(
      { orderId, attempt: count.attempts, err: summarizeError(error) },
      'order send attempt failed',
    );
    const pauseMs = pauseAllSendersMs(error);
    if (pauseMs !== undefined) {
      this.#budget.pause(pauseMs);
      await this.#pauseFor(pauseMs, signal);
    }
  }

  /** How a dispatch that was not placed ended. */
  #failed(error: unknown, attempts: number, expiryTs: number, signal: AbortSignal): DispatchResult {
    if (signal.aborted) return { kind: 'interrupted', error, attempts };
    if (attempts === 0) return { kind: 'unsent', error, attempts };
    // Judged again here because p-retry skips shouldRetry once the attempts are used up.
    const { maxAttempts, now } = this.#options;
    const verdict = judgeFailedAttempt({
      error,
      attempt: maxAttempts,
      maxAttempts,
      now: now(),
      expiryTs,
    });
    return { kind: verdict === 'retry' ? 'unknown' : verdict, error, attempts };
  }

  /** Runs one send with an order permit, released (and held on by the budget) after the answer. */
  async #withPermit<T>(send: () => Promise<T>): Promise<T> {
    const permit = await this.#budget.take('order', this.#abort.signal);
    try {
      const result = await send();
      permit.release();
      return result;
    } catch (error) {
      // A send that never left (expired waiting for its permit) gives its slot back at once.
      permit.release(!isQuantaError(error, ErrorCodes.ORDER_EXPIRED));
      throw error;
    }
  }

  #checkExpiry(orderId: number, expiryTs: number): void {
    const marginMs = this.#options.expiryMarginMs ?? DEFAULT_EXPIRY_MARGIN_MS;
    const now = this.#options.now();
    if (now + marginMs < expiryTs) return;
    throw new QuantaError(
      ErrorCodes.ORDER_EXPIRED,
      `order ${orderId} expired before it could be sent (expiry ${new Date(expiryTs).toISOString()}, ${expiryTs - now} ms left, margin ${marginMs} ms)`,
    );
  }

  /**
   * How long a dispatch started now would wait for its first rate slot, estimated from the
   * dispatches ahead of it and the share of the budget this process keeps to now. The
   * executor refuses an order this backlog would carry past its expiry instead of queueing it.
   * @param ahead - orders to be dispatched before it that are not handed over yet (the
   *   executor journals a snapshot's orders together before dispatching any of them).
   */
  estimatedWaitMs(ahead = 0): number {
    const paused = Math.max(0, this.#pausedUntil - this.#monotonic());
    return Math.max(paused, this.#budget.estimatedWaitMs(this.#inFlight.size + ahead));
  }

  /** {@link DispatcherOptions.expiryMarginMs} in effect. */
  get expiryMarginMs(): number {
    return this.#options.expiryMarginMs ?? DEFAULT_EXPIRY_MARGIN_MS;
  }

  async #pauseFor(ms: number, signal: AbortSignal): Promise<void> {
    const until = this.#monotonic() + ms;
    if (until <= this.#pausedUntil) return this.#waitOutPause(signal);
    this.#pausedUntil = until;
    this.#queue.pause();
    this.#options.log.warn({ pauseMs: ms }, 'venue rate limit hit: queue paused');
    try {
      await this.#options.sleep(ms, signal);
    } finally {
      if (this.#monotonic() >= this.#pausedUntil || signal.aborted) this.#queue.start();
    }
  }

  async #waitOutPause(signal: AbortSignal): Promise<void> {
    const wait = this.#pausedUntil - this.#monotonic();
    if (wait > 0) await this.#options.sleep(wait, signal);
  }

  /**
   * Waits up to `timeoutMs` for every dispatch to finish; then aborts what is left (those orders
   * stay SENT in the journal and are resent byte-identical on the next start).
   * @returns true when everything finished in time.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    const all = Promise.allSettled([...this.#inFlight]).then(() => true);
    let cancel: (() => void) | undefined;
    const timer = new Promise<boolean>((resolve) => {
      cancel = (this.#options.startTimer ?? systemBackgroundTimer)(timeoutMs, () => resolve(false));
    });
    const finished = await Promise.race([all, timer]);
    cancel?.();
    if (!finished) this.#abort.abort(new Error('shutdown'));
    this.#queue.clear();
    if (this.#ownsBudget) await this.#budget.close();
    return finished;
  }
}
