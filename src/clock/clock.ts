import { performance } from 'node:perf_hooks';

/**
 * The bot's two clocks. They answer different questions, so they are read apart:
 *
 * - `now` is the wall clock: what the venue compares an order's `expiryTs` with, what
 *   snapshots, journal rows and logs are stamped with. An operator or NTP may step it, back or
 *   forward, at any moment.
 * - `monotonic` only ever moves forward at the rate time passes: every duration, budget, wait and
 *   schedule is measured on it, so a step of the wall clock neither holds a rate slot for the
 *   step's length nor puts a poll off by it (issue 25: a wall clock stepped back ten minutes held
 *   the budget's slots for ten minutes, and polls fell from 30 to 9-12 per 5 s).
 *
 * Tests and backtests inject their own (virtual time; a wall clock they step by hand).
 */
export interface Clock {
  /** Wall-clock time, ms since the Unix epoch. May step. */
  readonly now: () => number;
  /** Ms since an arbitrary origin; never goes back, never jumps with the wall clock. */
  readonly monotonic: () => number;
}

/** The process's clocks: `Date.now` and `performance.now` (the only place that reads them). */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
};
