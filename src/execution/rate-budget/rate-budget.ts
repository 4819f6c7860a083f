/**
 * What every request to the venue takes before it leaves: a permit of the account's rate budget
 * (issue 15). Orders and order lookups wait for one (orders first); a poll never waits: it gets
 * its permits at once or is skipped and counted. A permit's slot stays taken until `perMs` (plus
 * a small guard) after the request's answer, because the venue counts the request at some moment
 * between its start and its answer.
 */

/** Who asks: orders go first, then order lookups; polls (markets, quotes) only take free slots. */
export type RequestKind = 'order' | 'lookup' | 'poll';

/** One request's slot in the budget. */
export interface Permit {
  /**
   * Call once, when the venue answered or the request failed. `sent: false` when the request
   * never left the process (expired or aborted before sending): its slot is free again at once.
   */
  release(sent?: boolean): void;
}

/**
 * `local`: this process alone; `shared`: one budget in Redis for every process of the account;
 * `fallback`: Redis unreachable, this process keeps to `requests / expectedProcesses`;
 * `unlimited`: backtests on virtual time.
 */
export type RateBudgetMode = 'local' | 'shared' | 'fallback' | 'unlimited';

/** What status and metrics show about a budget. */
export interface RateBudgetStatus {
  readonly mode: RateBudgetMode;
  /** Requests per `perMs` this process keeps to now (the fallback share when `fallback`). */
  readonly requests: number;
  readonly perMs: number;
  /** Polls skipped for want of a permit since start. */
  readonly skippedPolls: number;
  /** Times the shared budget fell back to the local share since start. */
  readonly fallbacks: number;
  /** Ms left of a 429 pause (this process's or another's, published through Redis). */
  readonly pausedForMs: number;
}

/** The rate budget of one venue account; see the module comment. */
export interface RateBudget {
  /**
   * Waits for a permit (orders before lookups, each in arrival order, and after any 429 pause).
   * Rejects with `signal.reason` when `signal` aborts first.
   */
  take(kind: 'order' | 'lookup', signal: AbortSignal): Promise<Permit>;
  /**
   * The permit `take` would grant at once (a free slot, nobody waiting, no pause, not closed),
   * or `undefined`: then `take` it. For a caller whose wait needs a deadline made for it (a
   * timer): no deadline is made when there is nothing to wait for. A budget that cannot tell
   * without waiting (the shared one) leaves it out.
   */
  takeFree?(kind: 'order' | 'lookup'): Permit | undefined;
  /**
   * `count` permits at once (all or none), or `undefined` when they are not free now, a 429
   * pause runs, or orders are waiting: the poll is then skipped and counted, never queued.
   */
  tryTake(kind: 'poll', count: number): Promise<Permit[] | undefined>;
  /** A 429's `Retry-After`: no permit for `ms` (every process, for a shared budget). */
  pause(ms: number): void;
  /**
   * Estimated wait of a request queued behind `queued` others, from the share this process
   * keeps to now (the executor refuses orders that would outlive their expiry in the queue).
   */
  estimatedWaitMs(queued: number): number;
  status(): RateBudgetStatus;
  /** Rejects every waiter, stops timers and (shared) closes the Redis connection. */
  close(): Promise<void>;
}

/** The default guard added to `perMs` after an answer (see `LocalRateBudget`). */
export const DEFAULT_GUARD_MS = 2;

const NO_OP_PERMIT: Permit = { release: () => undefined };

/** A budget that never waits and holds nothing (backtests on virtual time). */
export function unlimitedBudget(): RateBudget {
  return {
    take: () => Promise.resolve(NO_OP_PERMIT),
    tryTake: (_kind, count) => Promise.resolve(Array.from({ length: count }, () => NO_OP_PERMIT)),
    pause: () => undefined,
    estimatedWaitMs: () => 0,
    status: () => ({
      mode: 'unlimited',
      requests: Infinity,
      perMs: 0,
      skippedPolls: 0,
      fallbacks: 0,
      pausedForMs: 0,
    }),
    close: () => Promise.resolve(),
  };
}

/** Permits that count nothing, for polls when `countPolls` is off. */
export function freePermits(count: number): Permit[] {
  return Array.from({ length: count }, () => NO_OP_PERMIT);
}
