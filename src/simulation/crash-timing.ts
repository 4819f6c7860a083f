import type { CrashFault, FaultPlan } from './fault-plan.ts';
import type { VirtualScheduler } from './scheduler.ts';

/** How long after its boot a process meets a crash of the plan's that found none running. */
export const POSTPONED_CRASH_AFTER_BOOT_MS = 5_000;
/** The plan's second crash (`restartCrash`) follows only a first one this long before the faults stop. */
export const RESTART_CRASH_MARGIN_MS = 60_000;

/** What {@link CrashTiming} needs. */
export interface CrashTimingOptions {
  readonly plan: FaultPlan;
  readonly scheduler: VirtualScheduler;
  /** Virtual ms at which the faults stop. */
  readonly faultsUntil: number;
  /** Kills the running process now (schedule-run.ts). */
  readonly crash: (fault: CrashFault) => void;
  /** Adds an event to the trace. */
  readonly event: (text: string) => void;
}

/**
 * When the plan's crashes strike, besides at their time: armed for the bot's next journal writes
 * (`CrashFault.atWrite`); postponed to the next process that boots on a sound journal when none
 * ran (5 s after its boot); and the plan's second crash (`restartCrash`), of the process started
 * after the first crash, during its start-up.
 */
export class CrashTiming {
  readonly #options: CrashTimingOptions;
  /** A crash waiting for the bot's next journal writes (`again`: the plan's second crash). */
  #armed: { readonly fault: CrashFault; writesLeft: number; readonly again?: true } | undefined;
  /**
   * A crash for the next process that boots on a sound journal, `afterBootMs` after its boot;
   * `again`: the plan's second crash, which never strikes once the faults have stopped.
   */
  #postponed:
    | {
        readonly fault: CrashFault;
        readonly afterBootMs: number;
        readonly atWrite?: number;
        readonly again?: true;
      }
    | undefined;
  /** The plan's second crash, once it is due. */
  #again: CrashFault | undefined;
  /** The plan's crashes that happened (a process was running when one came). */
  crashes = 0;
  /**
   * The plan's crashes due to strike: its crash, and the restarted bot's second one once it was
   * due (the first came early enough) and until it is dropped (the faults stopped first).
   */
  due: number;

  constructor(options: CrashTimingOptions) {
    this.#options = options;
    this.due = options.plan.crashes.length;
  }

  /** Arms `fault` for the bot's next `fault.atWrite` journal writes. */
  arm(fault: CrashFault, writes = fault.atWrite ?? 1, again?: true): void {
    this.#armed = { fault, writesLeft: writes, ...(again === undefined ? {} : { again }) };
  }

  /** Whether `fault` is still armed (no write struck it). */
  armed(fault: CrashFault): boolean {
    return this.#armed?.fault === fault;
  }

  /** `fault` struck or found no process: it is armed no more. */
  disarm(fault: CrashFault): void {
    if (this.#armed?.fault === fault) this.#armed = undefined;
  }

  /** The running process wrote its journal: the armed crash, when this is the write it waits for. */
  wrote(): CrashFault | undefined {
    const armed = this.#armed;
    if (armed === undefined || --armed.writesLeft > 0) return undefined;
    if (armed.again === true && this.#stopped()) {
      this.disarm(armed.fault);
      this.#drop();
      return undefined;
    }
    return armed.fault;
  }

  /**
   * The plan's crash `fault` came while no process ran: it strikes the next one (the second
   * crash only if the faults have not stopped by then).
   */
  postpone(fault: CrashFault): void {
    const again = fault === this.#again;
    if (again && this.#stopped()) return this.#drop();
    this.#postponed = {
      fault,
      afterBootMs: POSTPONED_CRASH_AFTER_BOOT_MS,
      ...(again ? { again: true as const } : {}),
    };
  }

  /**
   * A plan's crash struck a running process at `at`: counted; after the first, the plan's second
   * crash (if any, and if the first came early enough) waits for the next process.
   */
  struck(at: number): void {
    this.crashes += 1;
    const again = this.#options.plan.restartCrash;
    const early = at < this.#options.faultsUntil - RESTART_CRASH_MARGIN_MS;
    if (this.crashes === 1 && again !== undefined && early) {
      this.#again = { at };
      this.#postponed = { fault: this.#again, ...again, again: true };
      this.due += 1;
    }
  }

  /** A process booted on a sound journal: a postponed crash starts its countdown. */
  booted(): void {
    const postponed = this.#postponed;
    if (postponed === undefined) return;
    this.#postponed = undefined;
    const { fault, afterBootMs, atWrite, again } = postponed;
    // The second crash is a fault like the others: none once the faults have stopped (a
    // restore after journal damage, or a partition, can delay the restarted bot's boot).
    const stopped = (): boolean => again === true && this.#stopped();
    if (stopped()) return this.#drop();
    if (atWrite !== undefined) this.arm(fault, atWrite, again);
    this.#options.scheduler.startTimer(0, afterBootMs, () => {
      if (atWrite !== undefined && !this.armed(fault)) return;
      this.disarm(fault);
      if (stopped()) this.#drop();
      else this.#options.crash(fault);
    });
  }

  #stopped(): boolean {
    return this.#options.scheduler.monotonic() >= this.#options.faultsUntil;
  }

  #drop(): void {
    this.due -= 1;
    this.#options.event('the second crash is dropped: the faults have stopped');
  }
}
