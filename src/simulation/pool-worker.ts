import { runSchedule, type ScheduleResult } from './run-schedule.ts';

/** One schedule to run in a worker thread of `quanta sim --seeds`. */
export interface SeedTask {
  readonly seed: number;
  readonly durationMs?: number;
}

/** Runs one schedule (the worker thread's task handler). */
export default function runSeed(task: SeedTask): Promise<ScheduleResult> {
  return runSchedule({
    seed: task.seed,
    ...(task.durationMs === undefined
      ? {}
      : { durationMs: task.durationMs, healMs: Math.floor(task.durationMs / 5) }),
  });
}
