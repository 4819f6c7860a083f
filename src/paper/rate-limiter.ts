/** What the rate limiter decided for one request. */
export type RateDecision =
  | { readonly allowed: true }
  /** Refused: try again in `retryAfterSeconds` (at least 1, the `Retry-After` value). */
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * A sliding-window limit per client: at most `limit` admitted requests in any `windowMs`.
 * Refused requests do not count, so a client that backs off for `Retry-After` gets through.
 * Time comes from the injected clock, never from a timer.
 *
 * @example
 * const limiter = new SlidingWindowRateLimiter(10, 1000, () => now);
 * limiter.take('127.0.0.1'); // { allowed: true } for the first ten in a second
 */
export class SlidingWindowRateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #clock: () => number;
  /** Admission times per client, oldest first. */
  readonly #admitted = new Map<string, number[]>();

  /**
   * @param limit - requests admitted per window, a positive integer.
   * @param windowMs - the window length in ms.
   * @param clock - ms since the epoch.
   */
  constructor(limit: number, windowMs: number, clock: () => number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#clock = clock;
  }

  /** Admits (and counts) a request of `client`, or says how long it must wait. */
  take(client: string): RateDecision {
    const now = this.#clock();
    this.#forgetIdle(now);
    let times = this.#admitted.get(client);
    if (times === undefined) {
      times = [];
      this.#admitted.set(client, times);
    }
    while (times.length > 0 && (times[0] ?? now) <= now - this.#windowMs) times.shift();
    if (times.length < this.#limit) {
      times.push(now);
      return { allowed: true };
    }
    const oldest = times[0] ?? now;
    const waitMs = oldest + this.#windowMs - now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  // Keeps memory bounded by the clients active in the last window.
  #forgetIdle(now: number): void {
    if (this.#admitted.size < 1024) return;
    for (const [client, times] of this.#admitted) {
      const last = times[times.length - 1];
      if (last === undefined || last <= now - this.#windowMs) this.#admitted.delete(client);
    }
  }
}
