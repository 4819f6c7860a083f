import { expect, it } from 'vitest';
import { WallStepWatch } from '../../../src/clock/wall-step-watch.ts';
import { createLogger } from '../../../src/log/logger.ts';

it('logs each step of the wall clock once, and neither drift nor a late event loop', () => {
  const clocks = { wall: 1_767_571_200_000, mono: 5_000 };
  const records: Record<string, unknown>[] = [];
  const watch = new WallStepWatch({
    clock: { now: () => clocks.wall, monotonic: () => clocks.mono },
    log: createLogger({
      level: 'info',
      destination: {
        write: (line: string) => records.push(JSON.parse(line) as Record<string, unknown>),
      },
    }),
  });
  const advance = (ms: number, wallDrift = 0): void => {
    clocks.wall += ms + wallDrift;
    clocks.mono += ms;
  };
  expect(watch.check()).toBeUndefined();
  advance(30_000); // a blocked event loop: both clocks moved
  advance(100, 1000); // a slew of up to 1 s: drift, not a step
  expect(watch.check()).toBeUndefined();
  advance(100, -600_000);
  expect(watch.check()).toBe(-600_000);
  expect(watch.check()).toBeUndefined();
  advance(100);
  expect(watch.check()).toBeUndefined();
  advance(100, 1001);
  expect(watch.check()).toBe(1001);
  expect(watch.steps).toBe(2);
  expect(records.map((record) => [record.msg, record.stepMs])).toEqual([
    [
      'wall clock stepped back 600000 ms: rate budgets and waits keep to the monotonic clock; order expiries are signed on the wall clock',
      -600_000,
    ],
    [
      'wall clock stepped forward 1001 ms: rate budgets and waits keep to the monotonic clock; order expiries are signed on the wall clock',
      1001,
    ],
  ]);
});
