import type { CrashFault, FaultPlan } from './fault-plan.ts';

/** What {@link startPlannedFaults} does with the plan's faults, as the schedule runs. */
export interface PlannedFaultHooks {
  /** Starts a timer of the schedule's own (no process's) at virtual ms `ms`. */
  readonly at: (ms: number, fire: () => void) => void;
  /** Adds an event to the trace. */
  readonly event: (text: string) => void;
  /** Kills the running process now. */
  readonly crash: (fault: CrashFault) => void;
  /** Arms a crash for the bot's next journal writes (`CrashFault.atWrite`). */
  readonly arm: (fault: CrashFault) => void;
  /** Whether `fault` is still armed (no write struck it). */
  readonly armed: (fault: CrashFault) => boolean;
}

/**
 * Starts the timers of a schedule's clock, disk and crash faults, in the plan's order: the
 * clock's and the disk's start and end are told to the trace (the host clock and the journal's
 * disk read the plan themselves); a crash strikes at its time, or, with `atWrite`, is armed then
 * and strikes after that many journal writes, or at the timer `latest` when the bot writes
 * nothing meanwhile (not trading, or down).
 *
 * @param faultsUntil - virtual ms at which the faults stop (an armed crash strikes by then).
 */
export function startPlannedFaults(
  plan: FaultPlan,
  faultsUntil: number,
  hooks: PlannedFaultHooks,
): void {
  const { clock, disk, crashes } = plan;
  const { at, event } = hooks;
  if (clock !== undefined) {
    const ahead = clock.offsetMs > 0 ? 'ahead of' : 'behind';
    at(clock.from, () => event(`host clock ${Math.abs(clock.offsetMs)} ms ${ahead} the venue's`));
    at(clock.to, () => event("host clock back on the venue's time"));
  }
  if (disk !== undefined) {
    at(disk.from, () => event(`journal disk ${disk.kind}`));
    at(disk.to, () => event('journal disk writable again'));
  }
  for (const crash of crashes) {
    if (crash.atWrite === undefined) {
      at(crash.at, () => hooks.crash(crash));
      continue;
    }
    at(crash.at, () => hooks.arm(crash));
    const latest = Math.min(crash.at + 20_000, faultsUntil);
    at(latest, () => {
      if (hooks.armed(crash)) hooks.crash(crash);
    });
  }
}
