import type { Logger } from '../log/logger.ts';
import type { Clock } from './clock.ts';

/**
 * A change of `now - monotonic` beyond this between two readings is a step of the wall clock,
 * not drift: NTP slews a clock by at most 0.5 ms per second, and both readings move together
 * however late the event loop runs.
 */
export const WALL_STEP_THRESHOLD_MS = 1000;

/** Options of {@link WallStepWatch}. */
export interface WallStepWatchOptions {
  readonly clock: Clock;
  readonly log: Logger;
  /** Default {@link WALL_STEP_THRESHOLD_MS}. */
  readonly thresholdMs?: number;
}

/**
 * Notices when the wall clock is stepped (by an operator, NTP, a VM resumed) by comparing it
 * with the monotonic clock at every {@link check}, and says so once per step: nothing that waits
 * or counts a budget is affected (those run on the monotonic clock), but the timestamps the bot
 * signs and stamps are.
 */
export class WallStepWatch {
  readonly #options: WallStepWatchOptions;
  readonly #thresholdMs: number;
  /** `now - monotonic` at the last check. */
  #offset: number | undefined;
  #steps = 0;

  constructor(options: WallStepWatchOptions) {
    this.#options = options;
    this.#thresholdMs = options.thresholdMs ?? WALL_STEP_THRESHOLD_MS;
  }

  /** Steps seen since start. */
  get steps(): number {
    return this.#steps;
  }

  /**
   * Reads both clocks; logs a step the first time it is seen.
   * @returns the step in ms (negative: back), or undefined when there was none.
   */
  check(): number | undefined {
    const { clock, log } = this.#options;
    const offset = clock.now() - clock.monotonic();
    const before = this.#offset;
    this.#offset = offset;
    if (before === undefined) return undefined;
    const stepMs = Math.round(offset - before);
    if (Math.abs(stepMs) <= this.#thresholdMs) return undefined;
    this.#steps += 1;
    log.warn(
      { stepMs, wallClock: new Date(clock.now()).toISOString() },
      `wall clock stepped ${stepMs < 0 ? 'back' : 'forward'} ${Math.abs(stepMs)} ms: rate budgets and waits keep to the monotonic clock; order expiries are signed on the wall clock`,
    );
    return stepMs;
  }
}
