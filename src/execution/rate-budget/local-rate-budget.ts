import { Pump } from './pump.ts';
import {
  DEFAULT_GUARD_MS,
  freePermits,
  type Permit,
  type RateBudget,
  type RateBudgetStatus,
} from './rate-budget.ts';
import { SlotWindow, type Slot } from './slot-window.ts';
import { Waiters } from './waiters.ts';

/** Options of {@link LocalRateBudget}. */
export interface LocalRateBudgetOptions {
  /** Requests per window (`execution.rateLimit.requests`, or the fallback share). */
  readonly requests: number;
  /** The window in ms (`execution.rateLimit.perMs`). */
  readonly perMs: number;
  /**
   * Added to `perMs` after an answer. Default 2: the hold already starts at the answer, after
   * the venue counted the request; the guard only covers whole-ms clocks.
   */
  readonly guardMs?: number;
  /** Polls take permits (default true); false: polls are neither limited nor counted. */
  readonly countPolls?: boolean;
  /**
   * Slots only polls may take (see `pollReserve`): orders and lookups keep to `requests` minus
   * these, so a flood of orders never starves the data every strategy trades on. Default 0.
   */
  readonly pollReserve?: number;
  /**
   * A monotonic clock in ms (`Clock.monotonic`), never the wall clock: a slot held until a wall
   * time stays held for as long as the wall clock is stepped back.
   */
  readonly now: () => number;
  /** Waits `ms` or until the signal aborts; injectable so tests drive time. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * The rate budget of one process: `requests` slots, each taken when a request may start and
 * held until `perMs` + guard after its answer (the venue counts a request at some moment
 * between the two, so no venue window of `perMs` ever sees more than `requests`, however late a
 * request leaves a busy event loop; counting starts alone let requests that left late bunch up:
 * 22-23 in one second against a limit of 20). A slot is handed to the next waiter at the moment
 * it frees, by one loop with an absolute deadline, not by a timer per slot.
 *
 * @example
 * const budget = new LocalRateBudget({ requests: 10, perMs: 1000, now: Date.now, sleep });
 * const permit = await budget.take('order', signal);
 * try { await send(); } finally { permit.release(); }
 */
export class LocalRateBudget implements RateBudget {
  readonly #options: LocalRateBudgetOptions;
  readonly #holdMs: number;
  readonly #reserve: number;
  readonly #window = new SlotWindow();
  /** The slots polls hold (also in `#window`), to know how much of the reserve is theirs. */
  readonly #pollWindow = new SlotWindow();
  readonly #waiters = new Waiters();
  readonly #pump: Pump;
  #pausedUntil = 0;
  #skippedPolls = 0;
  #closed = false;

  constructor(options: LocalRateBudgetOptions) {
    this.#options = options;
    this.#holdMs = options.perMs + (options.guardMs ?? DEFAULT_GUARD_MS);
    // Orders keep at least one slot, whatever the reserve asked for.
    this.#reserve =
      options.countPolls === false
        ? 0
        : Math.max(0, Math.min(options.pollReserve ?? 0, options.requests - 1));
    this.#pump = new Pump(() => this.#step(), options.sleep);
  }

  take(kind: 'order' | 'lookup', signal: AbortSignal): Promise<Permit> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    if (this.#closed) return Promise.reject(new Error('rate budget closed'));
    // Nobody ahead: no queue round trip (the common case of a bot under its limit).
    const free = this.takeFree();
    if (free !== undefined) return Promise.resolve(free);
    const waiting = this.#waiters.enqueue(kind, signal);
    this.#pump.kick();
    return waiting;
  }

  takeFree(): Permit | undefined {
    if (this.#closed || this.#waiters.size > 0 || this.#orderFree() <= 0) return undefined;
    return this.#permit();
  }

  tryTake(_kind: 'poll', count: number): Promise<Permit[] | undefined> {
    if (this.#options.countPolls === false) {
      // Uncounted polls still keep a 429's pause: the venue asked every request to wait.
      if (this.#options.now() >= this.#pausedUntil) return Promise.resolve(freePermits(count));
      this.#skippedPolls += 1;
      return Promise.resolve(undefined);
    }
    // Orders (and lookups) first: a poll never takes a slot someone waits for, only the
    // reserved ones then (orders cannot take those).
    const free = this.#free();
    const forPolls = this.#waiters.size > 0 ? Math.min(free, this.#reserveLeft()) : free;
    if (this.#closed || forPolls < count) {
      this.#skippedPolls += 1;
      return Promise.resolve(undefined);
    }
    return Promise.resolve(Array.from({ length: count }, () => this.#permit(true)));
  }

  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#options.now() + ms);
  }

  estimatedWaitMs(queued: number): number {
    const paused = Math.max(0, this.#pausedUntil - this.#options.now());
    return paused + Math.floor(queued / (this.#options.requests - this.#reserve)) * this.#holdMs;
  }

  status(): RateBudgetStatus {
    return {
      mode: 'local',
      requests: this.#options.requests,
      perMs: this.#options.perMs,
      skippedPolls: this.#skippedPolls,
      fallbacks: 0,
      pausedForMs: Math.max(0, this.#pausedUntil - this.#options.now()),
    };
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#pump.close();
    this.#waiters.rejectAll(new Error('rate budget closed'));
    return Promise.resolve();
  }

  /** Free slots for orders and lookups now: the part of the reserve polls do not hold is theirs. */
  #orderFree(): number {
    return this.#free() - this.#reserveLeft();
  }

  /** Reserved slots that polls do not hold now. */
  #reserveLeft(): number {
    if (this.#reserve === 0) return 0;
    return Math.max(0, this.#reserve - this.#pollWindow.used(this.#options.now()));
  }

  /** Free slots now (none during a 429 pause). */
  #free(): number {
    const now = this.#options.now();
    if (now < this.#pausedUntil) return 0;
    return this.#options.requests - this.#window.used(now);
  }

  #permit(poll = false): Permit {
    const slot: Slot = this.#window.take();
    // The same slot, counted among the polls' too (hold and drop are seen by both windows).
    if (poll && this.#reserve > 0) this.#pollWindow.adopt(slot);
    let released = false;
    return {
      release: (sent = true) => {
        if (released) return;
        released = true;
        if (sent) this.#window.hold(slot, this.#options.now() + this.#holdMs);
        else this.#window.drop(slot);
        if (this.#waiters.size > 0) this.#pump.kick();
      },
    };
  }

  #step(): number | undefined {
    while (this.#waiters.size > 0 && this.#orderFree() > 0) this.#waiters.grant(this.#permit());
    if (this.#waiters.size === 0) return undefined;
    const now = this.#options.now();
    const wakeAt = now < this.#pausedUntil ? this.#pausedUntil : this.#window.nextFreeAt();
    return wakeAt === Infinity ? Infinity : Math.max(0, wakeAt - now);
  }
}
