import { runSchedule, type ScheduleResult } from './run-schedule.ts';
import type { SimMixName } from './sim-mix.ts';

/** One schedule to run in a worker thread of `quanta sim --seeds`. */
export interface SeedTask {
  readonly seed: number;
  readonly durationMs?: number;
  readonly mix?: SimMixName;
}

/** Runs one schedule (the worker thread's task handler). */
export default function runSeed(task: SeedTask): Promise<ScheduleResult> {
  return runSchedule({
    seed: task.seed,
    ...(task.mix === undefined ? {} : { mix: task.mix }),
    ...(task.durationMs === undefined
      ? {}
      : { durationMs: task.durationMs, healMs: Math.floor(task.durationMs / 5) }),
  });
}
