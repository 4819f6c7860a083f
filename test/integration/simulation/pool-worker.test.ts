/**
 * Issue 31: `quanta sim --seeds` runs schedules in worker threads (src/simulation/pool-worker.ts),
 * whose errors capture no stack (it costs a schedule time, and nothing it returns holds one). A
 * schedule there must give the trace hash it gives in the main thread, and a schedule that
 * throws must be reported with its seed and the command that replays it with a stack.
 */
import { expect, it } from 'vitest';
import { runSchedule } from '../../../src/simulation/run-schedule.ts';
import { runSeeds } from '../../../src/simulation/run-seeds.ts';
import type { SimMixName } from '../../../src/simulation/sim-mix.ts';

const TWO_MINUTES = 2 * 60_000;

it('a worker thread gives a seed the trace hash the main thread gives it', async () => {
  const [pooled] = await runSeeds({ from: 11, to: 11, threads: 1, durationMs: TWO_MINUTES });
  const alone = await runSchedule({ seed: 11, durationMs: TWO_MINUTES, healMs: TWO_MINUTES / 5 });
  expect(pooled?.traceHash).toBe(alone.traceHash);
  expect(pooled?.stats).toEqual(alone.stats);
  // Faults met: the worker made the errors whose stacks it does not capture.
  expect(alone.stats.faults).toBeGreaterThan(0);
}, 120_000);

it('a schedule that throws in a worker names its seed and how to replay it with a stack', async () => {
  // No such mix: setting the schedule up throws (the CLI refuses the name before this point).
  const failing = runSeeds({ from: 3, to: 3, threads: 1, mix: 'nope' as SimMixName });
  const error: unknown = await failing.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  const { message, stack } = error as Error;
  expect(message).toMatch(
    /^seed 3: the schedule stopped: .+ \(quanta sim --seed 3 --mix nope replays it with a stack\)$/,
  );
  // The worker captured no frames: the stack is the message alone.
  expect(stack ?? '').not.toMatch(/\n\s+at /);
}, 120_000);
