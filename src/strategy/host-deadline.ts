import type { Logger } from '../log/logger.ts';
import type { Snapshot } from '../market/snapshot.ts';
import { systemTimer, type StartTimer } from '../clock/timers.ts';
import { raceDeadline, TIMED_OUT } from './strategy-timer.ts';

/** What a {@link HostDeadline} needs from its host. */
export interface HostDeadlineOptions {
  /** The strategy instance, for messages. */
  readonly name: string;
  readonly log: Logger;
  /** How long one call may stay pending; undefined: as long as it takes. */
  readonly timeoutMs: number | undefined;
  readonly startTimer?: StartTimer | undefined;
  /** Timeouts in a row after which the strategy is paused. */
  readonly maxTimeouts: number;
  /** Pauses the strategy, with the reason. */
  readonly pause: (reason: string) => void;
}

/**
 * The `onSnapshot` deadline of one strategy host (see `StrategyHost`): races a pending answer
 * against `timeoutMs`, remembers an abandoned call until it settles, counts timeouts and pauses
 * the strategy after too many in a row.
 *
 * An `onSnapshot` whose promise is still pending `timeoutMs` after the call is abandoned for
 * that snapshot (no intents), counted and logged; while it stays pending the strategy is not
 * called again (it may not be reentrant), and each snapshot it misses counts as another timeout,
 * so a strategy that hangs for good is paused after `maxConsecutiveTimeouts` snapshots and costs
 * the others at most one timeout. The deadline is a real-time timer in every mode, backtests
 * included: virtual time does not move while a strategy is thinking, so only a real timer can
 * end a promise that never settles. It fires on a timer turn of the event loop, after every
 * pending promise job, so a strategy that settles without waiting for I/O or timers (every
 * strategy that only computes, sync or async) can never time out, however slow the machine:
 * backtests stay deterministic. Synchronous work cannot be interrupted at all; the deadline
 * only bounds waiting.
 */
export class HostDeadline {
  readonly #options: HostDeadlineOptions;
  #timeouts = 0;
  #inRow = 0;
  /** The abandoned call, until it settles. */
  #late: Promise<void> | undefined;

  constructor(options: HostDeadlineOptions) {
    this.#options = options;
  }

  /** True while an abandoned call has not settled (the strategy is not asked again meanwhile). */
  get busy(): boolean {
    return this.#late !== undefined;
  }

  /** Snapshots abandoned or skipped since start. */
  get timeouts(): number {
    return this.#timeouts;
  }

  /** The strategy answered in time (or was resumed): its streak of timeouts is over. */
  answered(): void {
    this.#inRow = 0;
  }

  /** The strategy's answer, or TIMED_OUT after `timeoutMs` (the call is then remembered as late). */
  async within(pending: PromiseLike<unknown>, snapshot: Snapshot): Promise<unknown> {
    const { timeoutMs, startTimer = systemTimer, name } = this.#options;
    if (timeoutMs === undefined) return await pending;
    // Settled into a value so that a late rejection is never an unhandled one.
    const settled = Promise.resolve(pending).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const answer = await raceDeadline(settled, timeoutMs, startTimer);
    if (answer === TIMED_OUT) {
      this.#late = settled.then((late) => {
        this.#late = undefined;
        this.#options.log.info(
          {
            strategy: name,
            seq: snapshot.seq,
            failed: !late.ok,
          },
          `strategy ${name} answered snapshot ${snapshot.seq} after its deadline; answer discarded`,
        );
      });
      this.timedOut(snapshot, 'abandoned');
      return TIMED_OUT;
    }
    if (!answer.ok) throw answer.error;
    return answer.value;
  }

  /** Counts a snapshot the strategy did not answer in time; pauses it after too many in a row. */
  timedOut(snapshot: Snapshot, how: 'abandoned' | 'skipped'): void {
    const { log, timeoutMs, name } = this.#options;
    this.#timeouts += 1;
    this.#inRow += 1;
    const fields = {
      strategy: name,
      seq: snapshot.seq,
      timeoutMs,
      timeoutsInRow: this.#inRow,
    };
    // One warning per hang; the snapshots it goes on missing are counted, not shouted.
    if (how === 'abandoned') {
      log.warn(
        fields,
        `strategy ${name} did not answer snapshot ${snapshot.seq} within ${timeoutMs} ms; snapshot abandoned`,
      );
    } else {
      log.debug(
        fields,
        `strategy ${name} is still busy with an abandoned snapshot; snapshot ${snapshot.seq} skipped`,
      );
    }
    if (this.#inRow >= this.#options.maxTimeouts) {
      this.#options.pause(`${this.#inRow} timeouts in a row`);
      log.error(fields, `strategy ${name} paused after ${this.#inRow} timeouts in a row`);
    }
  }
}
