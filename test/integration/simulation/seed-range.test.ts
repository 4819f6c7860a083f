/**
 * Issue 31: CI runs a range of whole-bot schedules on the worker pool, as `quanta sim --seeds`
 * does (one thread per core), each the default schedule: 10 virtual minutes, the default fault
 * mix, one crash and restart, 2 minutes of healing, every invariant checked after every step
 * and at the end. Every one must end without a violation.
 *
 * The issue asks for at least 500 seeds in under 2 minutes. Earlier rounds ran 150 here (92.2 s in
 * the clean-clone CI run of e661894, 80.9 s in that of f376600: 500 would have taken some 4.5
 * minutes). After this round's speed work (the bot's own signatures recorded for the paper
 * venue's check, the simulated journal's small WAL, modular inverses, cheaper sim quotes and
 * order path; the same trace hashes), seeds 151-500 took 62.3 s (5.61 a second) on the 2-core
 * machine with `quanta sim --seeds 151-500 --threads 2`, none with a violation: the range is now
 * the 500.
 * `QUANTA_SIM_CI_FROM` / `QUANTA_SIM_CI_TO` run another range.
 *
 * Then the `full` mix (src/simulation/sim-mix.ts), seeds 1-100 (`QUANTA_SIM_CI_FULL_TO`):
 * LIMIT orders priced through thin books, on a market whose maker and taker fees differ, and
 * protective exits. Each of those schedules must have filled SOL-USD orders at several prices and
 * SOL-USD orders that rested after taking and then filled as maker, and sent exit orders: what
 * the mix is for.
 * The test runs in a group of its own, last (vitest.config.ts): beside the rest of the suite it
 * would take as long as the CPU it is left.
 */
import { expect, it } from 'vitest';
import { formatViolation } from '../../../src/simulation/invariants.ts';
import { rangeDigest } from '../../../src/simulation/range-digest.ts';
import { runSeeds } from '../../../src/simulation/run-seeds.ts';

const FROM = Number(process.env.QUANTA_SIM_CI_FROM ?? 1);
const TO = Number(process.env.QUANTA_SIM_CI_TO ?? 500);
const FULL_TO = Number(process.env.QUANTA_SIM_CI_FULL_TO ?? 100);
const TEN_MINUTES = 10 * 60_000;
/** SOL-USD's market id in the paper venue's listing (maker 2 bp, taker 5 bp). */
const SOL_USD = 5;

it(`seeds ${FROM}-${TO}: default 10-minute schedules with a crash, no violation`, async () => {
  const started = performance.now();
  const results = await runSeeds({ from: FROM, to: TO });
  const seconds = (performance.now() - started) / 1000;
  // Not "N schedules in S s": a line shaped like pytest's closing ("N passed in S s") reads, to a
  // tool looking for a runner's last summary, as a run that executed no test.
  console.log(
    `schedules: ${results.length}; range digest: ${rangeDigest(results)}; wall time: ${seconds.toFixed(1)} s; rate: ${(results.length / seconds).toFixed(2)}/s`,
  );
  expect(results.map((result) => result.seed)).toEqual(
    Array.from({ length: TO - FROM + 1 }, (_, i) => FROM + i),
  );
  // Nothing shortened: each schedule ran its 10 virtual minutes with its crash (a second one,
  // of the restarted bot, where the plan has it), and traded.
  for (const { seed, stats } of results) {
    expect(stats.virtualMs).toBe(TEN_MINUTES);
    expect(stats.crashes, `seed ${seed}`).toBeGreaterThanOrEqual(1);
    expect(stats.crashes, `seed ${seed}`).toBe(stats.crashesDue);
    expect(stats.ordersAccepted).toBeGreaterThan(0);
  }
  // Some restarted bots were crashed again during their start-up.
  expect(results.filter(({ stats }) => stats.crashes === 2).length).toBeGreaterThan(0);
  const violations = results
    .flatMap((result) => result.violations)
    .map((violation) => formatViolation(violation));
  expect(violations, violations.join('\n\n')).toEqual([]);
}, 900_000);

it(`full mix, seeds 1-${FULL_TO}: fills at several prices, maker after taker, exits, no violation`, async () => {
  const started = performance.now();
  const results = await runSeeds({ from: 1, to: FULL_TO, mix: 'full' });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `full-mix schedules: ${results.length}; range digest: ${rangeDigest(results)}; wall time: ${seconds.toFixed(1)} s`,
  );
  expect(results).toHaveLength(FULL_TO);
  for (const { seed, stats } of results) {
    expect(stats.virtualMs, `seed ${seed}`).toBe(TEN_MINUTES);
    expect(stats.crashes, `seed ${seed}`).toBeGreaterThanOrEqual(1);
    expect(stats.crashes, `seed ${seed}`).toBe(stats.crashesDue);
    // On SOL-USD, whose maker fee is not its taker fee: where a later fill's price and its
    // liquidity both change the fee.
    expect(stats.fills[SOL_USD]?.ordersAtSeveralPrices, `seed ${seed}`).toBeGreaterThan(0);
    expect(stats.fills[SOL_USD]?.ordersTakerThenMaker, `seed ${seed}`).toBeGreaterThan(0);
    expect(stats.exitOrders, `seed ${seed}`).toBeGreaterThan(0);
  }
  const violations = results
    .flatMap((result) => result.violations)
    .map((violation) => formatViolation(violation));
  expect(violations, violations.join('\n\n')).toEqual([]);
}, 900_000);
