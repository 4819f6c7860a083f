import { EXIT_TAG_PREFIX } from '../execution/exits/exit-book.ts';
import type { OrderJournal } from '../execution/journal.ts';
import type { SimEngine } from '../sim/index.ts';
import { faultNames, type FaultPlan } from './fault-plan.ts';
import { fillStats } from './fill-stats.ts';
import type { Violation } from './invariants.ts';
import type { ScheduleResult } from './schedule-setup.ts';
import type { Trace } from './trace.ts';
import type { AcceptedOrder } from './venue-watch.ts';

/** What {@link scheduleResult} reads of a schedule that has ended. */
export interface ScheduleEnd {
  readonly seed: number;
  readonly trace: Trace;
  readonly violations: readonly Violation[];
  readonly plan: FaultPlan;
  readonly steps: number;
  readonly durationMs: number;
  /** The last process's journal, if it opened one. */
  readonly journal: OrderJournal | undefined;
  readonly accepted: ReadonlyMap<string, AcceptedOrder>;
  /** The plan's crashes that happened, and those after which the journal was damaged. */
  readonly counts: {
    readonly crashes: number;
    readonly crashesDue: number;
    readonly journalDamages: number;
  };
  readonly networkFaults: number;
  readonly engine: SimEngine;
  readonly accountId: string;
}

/** A schedule's result: its trace hash (digested first), violations and what it exercised. */
export function scheduleResult(end: ScheduleEnd): ScheduleResult {
  const traceHash = end.trace.digest();
  return {
    seed: end.seed,
    traceHash,
    violations: [...end.violations],
    faultNames: faultNames(end.plan),
    stats: {
      events: end.trace.events,
      steps: end.steps,
      virtualMs: end.durationMs,
      ordersJournaled: Object.values(end.journal?.countByState() ?? {}).reduce(
        (sum, n) => sum + n,
        0,
      ),
      ordersAccepted: end.accepted.size,
      crashes: end.counts.crashes,
      crashesDue: end.counts.crashesDue,
      journalDamages: end.counts.journalDamages,
      faults: end.networkFaults,
      // From the venue's own records, read after the trace's digest.
      fills: fillStats(end.engine, end.accountId, end.accepted.values()),
      exitOrders: (end.journal?.all() ?? []).filter((row) => row.tag?.startsWith(EXIT_TAG_PREFIX))
        .length,
    },
  };
}
