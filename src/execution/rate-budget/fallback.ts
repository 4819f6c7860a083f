import { summarizeError } from '../../errors/index.ts';
import type { Logger } from '../../log/logger.ts';
import type { OwnSlots } from './own-slots.ts';
import type { SharedWindow } from './shared-window.ts';

/** Options of {@link Fallback}. */
export interface FallbackOptions {
  /** Requests per window for all processes together. */
  readonly requests: number;
  readonly perMs: number;
  /** `perMs` + guard: how long an answered slot is held. */
  readonly holdMs: number;
  /** A lease of a slot in flight (carried back into Redis as such). */
  readonly leaseMs: number;
  readonly expectedProcesses: number;
  /** How often the others probe too: the settling time counts three of their probes. */
  readonly probeEveryMs: number;
  /** The Redis URL as logs may show it (`redisLabel`). */
  readonly label: string;
  readonly now: () => number;
  readonly log: Logger;
}

/**
 * Whether a shared budget uses the shared window or keeps to this process's share, and the
 * moves between the two (see `RedisRateBudget` for the rules): falling back (logged once, a
 * quiet `perMs` + guard when leaving the shared window), probing Redis, and coming back
 * (logged, this process's held slots carried into Redis, then its share kept for a while).
 */
export class Fallback {
  /** This process's share: `floor(requests / expectedProcesses)`, at least 1. */
  readonly share: number;
  readonly #options: FallbackOptions;
  #mode: 'shared' | 'fallback' = 'shared';
  #fallbacks = 0;
  /**
   * Just fallen back from the shared window: until then this process takes no new slot (see
   * {@link Fallback.enter}).
   */
  #quietUntil = 0;
  /**
   * Back from a fallback: until then this process still keeps to its share (now counted in
   * Redis too), because the others may still be in fallback with slots Redis does not know.
   */
  #settleUntil = 0;
  /** A failed probe of a connected Redis was logged in this fallback (see {@link Fallback.probe}). */
  #probeFailureLogged = false;

  constructor(options: FallbackOptions) {
    this.#options = options;
    this.share = Math.max(1, Math.floor(options.requests / options.expectedProcesses));
  }

  get mode(): 'shared' | 'fallback' {
    return this.#mode;
  }

  /** Times this budget fell back since start. */
  get fallbacks(): number {
    return this.#fallbacks;
  }

  /** Until then a process that just left the shared window takes no slot. */
  get quietUntil(): number {
    return this.#quietUntil;
  }

  /** Until then a process back on the shared window still keeps to its share. */
  get settleUntil(): number {
    return this.#settleUntil;
  }

  /** The requests per window this process keeps to now. */
  requestsNow(): number {
    const settling = this.#options.now() < this.#settleUntil;
    return this.#mode === 'shared' && !settling ? this.#options.requests : this.share;
  }

  /** No new slot in a fallback's first quiet `perMs` + guard. */
  quiet(now: number): boolean {
    return this.#mode === 'fallback' && now < this.#quietUntil;
  }

  /**
   * Keeps to this process's share from now on; false when it already did. `wasShared`: leaving
   * the shared window, whose slots were spread over the processes as their waiters came, not by
   * shares: one holding fewer than its share at this moment would add the difference on top of
   * the others' many (up to R + R / expectedProcesses in the venue's window, over 1.25 R with
   * three). So no new slot until `perMs` + guard from now, when every slot answered under the
   * shared window has freed (Redis went away before we noticed, so nobody takes one after
   * this); from then on, each process's share adds only to its own requests still in flight,
   * which it counts.
   */
  enter(error: unknown, wasShared: boolean): boolean {
    if (this.#mode === 'fallback') return false;
    const options = this.#options;
    this.#mode = 'fallback';
    this.#fallbacks += 1;
    this.#probeFailureLogged = false;
    if (wasShared) this.#quietUntil = options.now() + options.holdMs;
    options.log.warn(
      {
        rateBudget: 'fallback',
        redis: options.label,
        requests: this.share,
        perMs: options.perMs,
        expectedProcesses: options.expectedProcesses,
        err: summarizeError(error),
      },
      "shared rate budget unreachable: keeping to this process's share until Redis answers",
    );
    return true;
  }

  /**
   * Tries the shared window again, carrying the slots this process still holds into it; true
   * when back on it. Only once ioredis says the connection is ready: before that every call
   * fails at once.
   */
  async probe(window: SharedWindow, own: OwnSlots): Promise<boolean> {
    if (!window.ready) return false;
    const options = this.#options;
    const now = options.now();
    const pairs = own.carried(now, options.leaseMs);
    try {
      if (pairs.length > 0) await window.hold(pairs);
      else await window.ping();
    } catch (error) {
      this.#probeFailed(error);
      return false;
    }
    this.#mode = 'shared';
    // Every other process probes as often: by then those alive are back and their slots in.
    this.#settleUntil = now + options.perMs + 3 * options.probeEveryMs;
    options.log.info(
      { rateBudget: 'shared', redis: options.label, requests: options.requests },
      'shared rate budget reachable again',
    );
    return true;
  }

  /**
   * The connection was ready, so this is no plain outage: said once per fallback (the next
   * probe tries again), where a silent retry hid such a failure for tens of seconds.
   */
  #probeFailed(error: unknown): void {
    if (this.#probeFailureLogged) return;
    this.#probeFailureLogged = true;
    this.#options.log.warn(
      { rateBudget: 'fallback', redis: this.#options.label, err: summarizeError(error) },
      "shared rate budget: Redis is connected but the probe failed; keeping to this process's share",
    );
  }
}
