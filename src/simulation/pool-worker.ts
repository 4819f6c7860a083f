import { summarizeError } from '../errors/index.ts';
import { runSchedule, type ScheduleResult } from './run-schedule.ts';
import type { SimMixName } from './sim-mix.ts';

/**
 * A worker thread's errors capture no stack. Nothing a schedule returns holds one (a violation
 * quotes an error's message: schedule-run.ts), and capturing one for each refusal, timeout and
 * lost answer a schedule meets cost about 3% of its time (ad hoc: seeds 1-80 in one thread,
 * twice each way). A schedule that throws is reported with its seed and how to replay it
 * (`runSeed`): `quanta sim --seed N` runs it in the main thread, whose errors keep their stacks.
 * Trace hashes do not depend on it (pool-worker.test compares a worker's with the main thread's).
 */
Error.stackTraceLimit = 0;

/** One schedule to run in a worker thread of `quanta sim --seeds`. */
export interface SeedTask {
  readonly seed: number;
  readonly durationMs?: number;
  readonly mix?: SimMixName;
}

/**
 * Runs one schedule (the worker thread's task handler).
 * @throws Error naming the seed and the replay command, when the schedule itself throws (a
 *   defect of the simulator; what the bot does wrong is a violation in the result).
 */
export default async function runSeed(task: SeedTask): Promise<ScheduleResult> {
  try {
    return await runSchedule({
      seed: task.seed,
      ...(task.mix === undefined ? {} : { mix: task.mix }),
      ...(task.durationMs === undefined
        ? {}
        : { durationMs: task.durationMs, healMs: Math.floor(task.durationMs / 5) }),
    });
  } catch (error) {
    const message = summarizeError(error).message ?? String(error);
    throw new Error(
      `seed ${task.seed}: the schedule stopped: ${message} (${replayCommand(task)} replays it with a stack)`,
    );
  }
}

/**
 * What runs `task` alone, in the main thread: its `quanta sim` command, or `runSchedule` for a
 * length the command cannot ask (not whole minutes).
 */
function replayCommand(task: SeedTask): string {
  const { seed, durationMs, mix } = task;
  if (durationMs !== undefined && !Number.isInteger(durationMs / 60_000))
    return `runSchedule({ seed: ${seed}, durationMs: ${durationMs}, healMs: ${Math.floor(durationMs / 5)}${mix === undefined ? '' : `, mix: '${mix}'`} })`;
  const minutes = durationMs === undefined ? '' : ` --minutes ${durationMs / 60_000}`;
  return `quanta sim --seed ${seed}${minutes}${mix === undefined ? '' : ` --mix ${mix}`}`;
}
