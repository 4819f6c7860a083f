/**
 * The scheduler's drains empty the microtask queue with a tick and take a turn of the event loop
 * only every TURN_EVERY_DRAINS (8) steps: Node looks for rejected promises nobody handled only on
 * such a turn. A bot that handles a rejection that many steps late must still crash the
 * schedule (as a live bot would crash: Node's default `--unhandled-rejections=throw`), and one
 * handled within the step must not. Run in a child process: the crash is the point.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

/** Steps between the rejection and its handler: the scheduler's TURN_EVERY_DRAINS (8) promises to catch it. */
const LATE_BY = 8;
const SCHEDULER = join(import.meta.dirname, '../../../src/simulation/scheduler.ts');

/** Rejects a promise in the timer of step 1 and handles it `lateBy` steps later; exit and stderr. */
function runWithLateHandler(lateBy: number): { status: number | null; stderr: string } {
  const script = `
    import { VirtualScheduler } from ${JSON.stringify(SCHEDULER)};
    const scheduler = new VirtualScheduler();
    let rejected;
    // One timer a virtual ms: step n fires at n ms.
    for (let step = 1; step <= 40; step++)
      scheduler.startTimer(0, step, () => {
        if (step === 1) rejected = Promise.reject(new Error('late-handled rejection'));
        if (step === 1 + ${lateBy}) rejected.catch(() => undefined);
      });
    await scheduler.runUntil(100, () => undefined);
    console.log('schedule ended');
  `;
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return { status: child.status, stderr: child.stderr };
}

it(`a rejection handled ${LATE_BY} steps late crashes the schedule`, () => {
  const { status, stderr } = runWithLateHandler(LATE_BY);
  expect(status).not.toBe(0);
  expect(stderr).toContain('late-handled rejection');
});

it('a rejection handled within its own step does not', () => {
  const { status, stderr } = runWithLateHandler(0);
  expect(stderr).toBe('');
  expect(status).toBe(0);
});
