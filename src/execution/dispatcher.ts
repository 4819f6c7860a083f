import { setMaxListeners } from 'node:events';
import PQueue from 'p-queue';
import pRetry from 'p-retry';
import { ErrorCodes, isQuantaError, QuantaError, summarizeError } from '../errors/index.ts';
import type { Logger } from '../log/logger.ts';
import type { VenueOrder } from '../venue/types.ts';
import { judgeFailedAttempt, pauseAllSendersMs, type AttemptVerdict } from './retry-policy.ts';

const DEFAULT_EXPIRY_MARGIN_MS = 100;

/** The exact bytes of a signed order: sent, and resent, as they are. */
export interface SignedOrderRequest {
  readonly body: string;
  readonly signature: string;
  readonly signer: string;
}

/** Where orders go: the HTTP venue client live and paper, the simulation in backtests. */
export interface OrderSubmitter {
  /** Sends the bytes once. Resolves to the venue's order or throws a `VenueError`. */
  submit(request: SignedOrderRequest, signal: AbortSignal): Promise<VenueOrder>;
}

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

/** Options of {@link Dispatcher}. */
export interface DispatcherOptions {
  readonly submitter: OrderSubmitter;
  /** Sends allowed per window (`execution.rateLimit.requests`). */
  readonly requests: number;
  /** The window in ms (`execution.rateLimit.perMs`). */
  readonly perMs: number;
  readonly concurrency: number;
  /** Attempts per order, the first included. */
  readonly maxAttempts: number;
  readonly now: () => number;
  /** Waits `ms` (429 pauses); injectable so tests need no real sleeps. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** First retry backoff in ms (doubles each retry, capped at 8×). */
  readonly backoffMs?: number;
  /** Added to `perMs`: how long a rate slot stays taken after an answer. Default 25. */
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
 * Sends signed orders through one rate-controlled queue (p-queue) and retries with p-retry by
 * resending **the identical bytes** (DESIGN order-safety rule 4). A 429 pauses the whole queue
 * for the venue's `Retry-After`.
 *
 * The rate limit is a window of `requests` slots: a send takes a slot when it starts and gives
 * it back `perMs` (+ `windowGuardMs`) after its answer. The venue counts a request at some
 * moment between those two, so no `perMs` window of the venue's ever sees more than
 * `requests` of them, however late a request leaves a busy event loop or crosses the network.
 * (Counting from the start alone, as a sliding window of starts does, lets requests that
 * left late bunch up at the venue: measured 22-23 in one second against a limit of 20.)
 */
export class Dispatcher {
  readonly #options: DispatcherOptions;
  readonly #queue: PQueue;
  /** One slot per request of the rate window; a slot is free again `perMs` after the answer. */
  readonly #window: PQueue | undefined;
  readonly #abort = new AbortController();
  /** Aborted once drained: no slot is held any longer, and no hold timer keeps the process up. */
  readonly #holds = new AbortController();
  #pausedUntil = 0;
  #inFlight = new Set<Promise<DispatchResult>>();

  constructor(options: DispatcherOptions) {
    this.#options = options;
    // Every queued, in-flight or slot-holding order listens to these (and stops when it is
    // done): a burst of more than ten is normal, not the leak Node warns about at eleven.
    setMaxListeners(0, this.#abort.signal, this.#holds.signal);
    this.#queue = new PQueue({ concurrency: options.concurrency });
    // Infinity requests = no rate limit (backtests run on virtual time).
    this.#window = Number.isFinite(options.requests)
      ? new PQueue({ concurrency: options.requests })
      : undefined;
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
    const { maxAttempts, now, log } = this.#options;
    const signal = this.#abort.signal;
    let attempts = 0;
    try {
      const order = await pRetry(
        async () => {
          this.#checkExpiry(orderId, expiryTs);
          await this.#waitOutPause(signal);
          const result = await this.#queue.add(
            () =>
              this.#windowed(async () => {
                // A 429 may have paused sending while this waited for its slot.
                await this.#waitOutPause(signal);
                // Checked again at the moment of sending, after the queue, the rate slot and
                // any pause: nothing leaves after its expiry, and a dead order frees its slot.
                this.#checkExpiry(orderId, expiryTs);
                attempts += 1;
                this.#options.onAttempt?.(orderId, attempts);
                return this.#options.submitter.submit(request, signal);
              }),
            { signal },
          );
          return result;
        },
        {
          retries: maxAttempts - 1,
          minTimeout: this.#options.backoffMs ?? 250,
          maxTimeout: (this.#options.backoffMs ?? 250) * 8,
          randomize: false,
          signal,
          shouldRetry: ({ error }) =>
            judgeFailedAttempt({ error, attempt: attempts, maxAttempts, now: now(), expiryTs }) ===
            'retry',
          onFailedAttempt: async ({ error }) => {
            log.warn(
              { orderId, attempt: attempts, err: summarizeError(error) },
              'order send attempt failed',
            );
            const pauseMs = pauseAllSendersMs(error);
            if (pauseMs !== undefined) await this.#pauseFor(pauseMs, signal);
          },
        },
      );
      return { kind: 'placed', order, attempts };
    } catch (error) {
      if (signal.aborted) return { kind: 'interrupted', error, attempts };
      if (attempts === 0) return { kind: 'unsent', error, attempts };
      // Judged again here because p-retry skips shouldRetry once the attempts are used up.
      const verdict = judgeFailedAttempt({
        error,
        attempt: maxAttempts,
        maxAttempts,
        now: now(),
        expiryTs,
      });
      return { kind: verdict === 'retry' ? 'unknown' : verdict, error, attempts };
    }
  }

  /** Runs one send in a window slot, held until `perMs` + guard after the send settles. */
  async #windowed<T>(send: () => Promise<T>): Promise<T> {
    const window = this.#window;
    if (window === undefined) return send();
    const holdMs = this.#options.perMs + (this.#options.windowGuardMs ?? 25);
    // The caller gets the answer as soon as it comes; the slot's task lives on to hold it.
    const { sending } = await new Promise<{ sending: Promise<T> }>((started) => {
      void window.add(async () => {
        const sending = (async () => send())();
        started({ sending });
        const left = await sending.then(
          () => true,
          (error: unknown) => !isQuantaError(error, ErrorCodes.ORDER_EXPIRED),
        );
        // A send that never left (expired in the queue) gives its slot back at once.
        if (left) await this.#options.sleep(holdMs, this.#holds.signal).catch(() => undefined);
      });
    });
    return sending;
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
   * dispatches ahead of it: each round of `requests` sends takes `perMs` plus the guard. The
   * executor refuses an order this backlog would carry past its expiry instead of queueing it.
   */
  estimatedWaitMs(): number {
    if (this.#window === undefined) return 0;
    const rounds = Math.floor(this.#inFlight.size / this.#options.requests);
    const paused = Math.max(0, this.#pausedUntil - this.#options.now());
    return paused + rounds * (this.#options.perMs + (this.#options.windowGuardMs ?? 25));
  }

  /** {@link DispatcherOptions.expiryMarginMs} in effect. */
  get expiryMarginMs(): number {
    return this.#options.expiryMarginMs ?? DEFAULT_EXPIRY_MARGIN_MS;
  }

  async #pauseFor(ms: number, signal: AbortSignal): Promise<void> {
    const until = this.#options.now() + ms;
    if (until <= this.#pausedUntil) return this.#waitOutPause(signal);
    this.#pausedUntil = until;
    this.#queue.pause();
    this.#options.log.warn({ pauseMs: ms }, 'venue rate limit hit: queue paused');
    try {
      await this.#options.sleep(ms, signal);
    } finally {
      if (this.#options.now() >= this.#pausedUntil || signal.aborted) this.#queue.start();
    }
  }

  async #waitOutPause(signal: AbortSignal): Promise<void> {
    const wait = this.#pausedUntil - this.#options.now();
    if (wait > 0) await this.#options.sleep(wait, signal);
  }

  /**
   * Waits up to `timeoutMs` for every dispatch to finish; then aborts what is left (those orders
   * stay SENT in the journal and are resent byte-identical on the next start).
   * @returns true when everything finished in time.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    const all = Promise.allSettled([...this.#inFlight]).then(() => true);
    const timer = new Promise<boolean>((resolve) => {
      const handle = setTimeout(() => resolve(false), timeoutMs);
      handle.unref();
    });
    const finished = await Promise.race([all, timer]);
    if (!finished) this.#abort.abort(new Error('shutdown'));
    this.#queue.clear();
    this.#window?.clear();
    this.#holds.abort();
    return finished;
  }
}
