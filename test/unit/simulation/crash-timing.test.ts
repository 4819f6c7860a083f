/**
 * When the plan's crashes strike besides at their time (src/simulation/crash-timing.ts): a crash
 * that found no process waits for the next boot; after the first crash, the plan's second crash
 * strikes the restarted bot during its start-up, after its journal writes or at its time; not
 * when the first came too late (the faults would have stopped).
 */
import { expect, it } from 'vitest';
import {
  CrashTiming,
  POSTPONED_CRASH_AFTER_BOOT_MS,
  RESTART_CRASH_MARGIN_MS,
} from '../../../src/simulation/crash-timing.ts';
import type { CrashFault, FaultPlan } from '../../../src/simulation/fault-plan.ts';
import { VirtualScheduler } from '../../../src/simulation/scheduler.ts';

const FAULTS_UNTIL = 480_000;
const PLAN: FaultPlan = {
  partitions: [],
  crashes: [{ at: 30_000 }],
  marketsOff: [],
  jumps: [],
  revocations: [],
  storms: [],
};

function timing(plan: FaultPlan) {
  const scheduler = new VirtualScheduler();
  const struck: number[] = [];
  const events: string[] = [];
  const crashTiming = new CrashTiming({
    event: (text) => events.push(text),
    plan,
    scheduler,
    faultsUntil: FAULTS_UNTIL,
    crash: (fault: CrashFault) => {
      struck.push(scheduler.monotonic());
      crashTiming.disarm(fault);
      crashTiming.struck(scheduler.monotonic());
    },
  });
  return { scheduler, crashTiming, struck, events };
}

it('a crash that found no process strikes the next one booted, 5 s after its boot', async () => {
  const { scheduler, crashTiming, struck } = timing(PLAN);
  crashTiming.postpone({ at: 30_000 });
  crashTiming.booted();
  await scheduler.runUntil(60_000, () => undefined);
  expect(struck).toEqual([POSTPONED_CRASH_AFTER_BOOT_MS]);
  expect(crashTiming.crashes).toBe(1);
});

it("the plan's second crash strikes the restarted bot after its journal writes, or at its time", async () => {
  const plan = { ...PLAN, restartCrash: { afterBootMs: 4_000, atWrite: 2 } };
  const { scheduler, crashTiming, struck } = timing(plan);
  crashTiming.struck(30_000);
  crashTiming.booted();
  expect(crashTiming.wrote()).toBeUndefined();
  const second = crashTiming.wrote();
  expect(second).toBeDefined();
  // The schedule crashes the process on that write (schedule-run.ts); here, by hand.
  crashTiming.disarm(second!);
  crashTiming.struck(31_000);
  await scheduler.runUntil(60_000, () => undefined);
  expect(struck).toEqual([]);
  expect(crashTiming.crashes).toBe(2);
  expect(crashTiming.due).toBe(2);

  // No write: it strikes at its time. And only once.
  const atTime = timing(plan);
  atTime.crashTiming.struck(30_000);
  atTime.crashTiming.booted();
  await atTime.scheduler.runUntil(60_000, () => undefined);
  expect(atTime.struck).toEqual([4_000]);
  atTime.crashTiming.booted();
  await atTime.scheduler.runUntil(120_000, () => undefined);
  expect(atTime.crashTiming.crashes).toBe(2);
});

it('no second crash when the first came less than a minute before the faults stop, or the plan has none', async () => {
  const late = timing({ ...PLAN, restartCrash: { afterBootMs: 1_000 } });
  late.crashTiming.struck(FAULTS_UNTIL - RESTART_CRASH_MARGIN_MS);
  late.crashTiming.booted();
  await late.scheduler.runUntil(FAULTS_UNTIL, () => undefined);
  expect(late.struck).toEqual([]);
  expect(late.crashTiming.due).toBe(1);

  const none = timing(PLAN);
  none.crashTiming.struck(30_000);
  none.crashTiming.booted();
  await none.scheduler.runUntil(FAULTS_UNTIL, () => undefined);
  expect(none.struck).toEqual([]);
});

it('the second crash is dropped, and not due, when the restarted bot boots or its time comes after the faults stopped', async () => {
  const plan = { ...PLAN, restartCrash: { afterBootMs: 8_000 } };
  // Its timer runs past the end of the faults.
  const overlapping = timing(plan);
  overlapping.crashTiming.struck(30_000);
  await overlapping.scheduler.runUntil(FAULTS_UNTIL - 4_000, () => undefined);
  overlapping.crashTiming.booted();
  await overlapping.scheduler.runUntil(FAULTS_UNTIL + 60_000, () => undefined);
  expect(overlapping.struck).toEqual([]);
  expect(overlapping.crashTiming.due).toBe(1);
  expect(overlapping.events).toEqual(['the second crash is dropped: the faults have stopped']);
  // The restarted bot boots after the end of the faults (a restore, a partition).
  const booted = timing({ ...plan, restartCrash: { afterBootMs: 0, atWrite: 1 } });
  booted.crashTiming.struck(30_000);
  await booted.scheduler.runUntil(FAULTS_UNTIL, () => undefined);
  booted.crashTiming.booted();
  expect(booted.crashTiming.wrote()).toBeUndefined();
  expect(booted.crashTiming.due).toBe(1);
  // Booted before the end of the faults, its first journal write after it.
  const wroteLate = timing({ ...plan, restartCrash: { afterBootMs: 8_000, atWrite: 1 } });
  wroteLate.crashTiming.struck(30_000);
  await wroteLate.scheduler.runUntil(FAULTS_UNTIL - 4_000, () => undefined);
  wroteLate.crashTiming.booted();
  await wroteLate.scheduler.runUntil(FAULTS_UNTIL, () => undefined);
  expect(wroteLate.crashTiming.wrote()).toBeUndefined();
  await wroteLate.scheduler.runUntil(FAULTS_UNTIL + 60_000, () => undefined);
  expect(wroteLate.struck).toEqual([]);
  expect(wroteLate.crashTiming.due).toBe(1);
});

it('the second crash that found no process (the restarted bot exited on a disk error) is dropped once the faults stopped', async () => {
  const scheduler = new VirtualScheduler();
  const fired: CrashFault[] = [];
  const events: string[] = [];
  const crashTiming = new CrashTiming({
    plan: { ...PLAN, restartCrash: { afterBootMs: 8_000 } },
    scheduler,
    faultsUntil: FAULTS_UNTIL,
    crash: (fault) => fired.push(fault),
    event: (text) => events.push(text),
  });
  crashTiming.struck(30_000);
  await scheduler.runUntil(FAULTS_UNTIL - 12_000, () => undefined);
  crashTiming.booted();
  // Its timer fires 4 s before the end; no process runs then, so schedule-run.ts postpones it.
  await scheduler.runUntil(FAULTS_UNTIL - 4_000, () => undefined);
  expect(fired).toHaveLength(1);
  crashTiming.postpone(fired[0]!);
  // The next process boots after the end of the faults: the crash does not strike it.
  await scheduler.runUntil(FAULTS_UNTIL + 1_000, () => undefined);
  crashTiming.booted();
  await scheduler.runUntil(FAULTS_UNTIL + 60_000, () => undefined);
  expect(fired).toHaveLength(1);
  expect(crashTiming.due).toBe(1);
  expect(events).toEqual(['the second crash is dropped: the faults have stopped']);
});
