import { rmSync } from 'node:fs';
import { ScheduleRun } from './schedule-run.ts';
import { setUp, type ScheduleOptions, type ScheduleResult } from './schedule-setup.ts';
import { defaultStateRoot } from './sim-setup.ts';

export type { ScheduleOptions, ScheduleResult } from './schedule-setup.ts';

/**
 * Runs one schedule: a bot on the in-process paper venue over the simulated network, on
 * virtual time, with the faults, crashes, damaged journals, clock and disk faults the seed
 * decides, checking the invariants (`INVARIANTS`) on every delivery, after every step and at
 * the end.
 */
export async function runSchedule(options: ScheduleOptions): Promise<ScheduleResult> {
  const root = options.stateRoot ?? defaultStateRoot();
  const ownRoot = options.stateRoot === undefined;
  let dir: string | undefined;
  let run: ScheduleRun | undefined;
  try {
    const setup = await setUp(options, root);
    dir = setup.dir;
    run = new ScheduleRun(setup);
    await run.run();
    return run.result();
  } finally {
    run?.close();
    if (ownRoot) rmSync(root, { recursive: true, force: true });
    else if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}
