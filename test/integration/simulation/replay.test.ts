/**
 * Issue 31: a schedule is named by its seed. The whole bot (poller, strategies, checks,
 * executor, dispatcher, SQLite journal, recovery, credential renewal) runs on the in-process
 * paper venue over the simulated network, on virtual time: the same seed gives the same trace
 * hash, event for event, faults, crash and restart included.
 */
import { expect, it } from 'vitest';
import { runSchedule } from '../../../src/simulation/run-schedule.ts';

const SHORT = { durationMs: 90_000, healMs: 30_000 } as const;

it('replays a seed exactly: the same trace hash twice, another seed another hash', async () => {
  const first = await runSchedule({ seed: 7, ...SHORT });
  const again = await runSchedule({ seed: 7, ...SHORT });
  const other = await runSchedule({ seed: 8, ...SHORT });
  expect(first.traceHash).toMatch(/^[0-9a-f]{16}$/);
  expect(again.traceHash).toBe(first.traceHash);
  expect(again.stats).toEqual(first.stats);
  expect(other.traceHash).not.toBe(first.traceHash);
  // The schedule did something worth replaying: orders, faults and a crash.
  expect(first.stats.ordersAccepted).toBeGreaterThan(0);
  expect(first.stats.faults).toBeGreaterThan(0);
  expect(first.stats.crashes).toBeGreaterThanOrEqual(1);
  expect(first.stats.crashes).toBe(first.stats.crashesDue);
}, 120_000);
