/**
 * The venue's faults of a schedule's plan (src/simulation/fault-plan.ts): drawn only for a mix
 * that has them, from their own stream (a mix without them replays as it did), among the mix's
 * markets, ended before the faults stop.
 */
import { expect, it } from 'vitest';
import { faultNames, planFaults } from '../../../src/simulation/fault-plan.ts';
import { SimRandom, STREAMS } from '../../../src/simulation/sim-random.ts';

const FAULTS_UNTIL = 480_000;

function plan(seed: number, venue: boolean) {
  return planFaults({
    plan: new SimRandom(seed, STREAMS.plan),
    more: new SimRandom(seed, STREAMS.more),
    extra: new SimRandom(seed, STREAMS.extra),
    faultsUntil: FAULTS_UNTIL,
    crashes: 1,
    ...(venue ? { venue: { random: new SimRandom(seed, STREAMS.venue), marketIds: [1, 5] } } : {}),
  });
}

it('draws none without venue faults, and leaves the other faults as they were with them', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const without = plan(seed, false);
    const withVenue = plan(seed, true);
    expect(without.marketsOff).toEqual([]);
    expect(without.jumps).toEqual([]);
    expect({ ...withVenue, marketsOff: [], jumps: [], revocations: [] }).toEqual(without);
  }
});

it('turns markets of the mix off and jumps their prices, within the faulty part', () => {
  const plans = Array.from({ length: 400 }, (_, i) => plan(i + 1, true));
  const offs = plans.flatMap((p) => p.marketsOff);
  const jumps = plans.flatMap((p) => p.jumps);
  // About half the schedules turn a market off, 6 in 10 jump (1-3 jumps).
  expect(offs.length).toBeGreaterThan(150);
  expect(offs.length).toBeLessThan(250);
  expect(plans.filter((p) => p.jumps.length > 0).length).toBeGreaterThan(190);
  for (const off of offs) {
    expect([1, 5]).toContain(off.marketId);
    expect(off.to - off.from).toBeGreaterThanOrEqual(5_000);
    expect(off.to).toBeLessThanOrEqual(FAULTS_UNTIL);
  }
  for (const jump of jumps) {
    expect([1, 5]).toContain(jump.marketId);
    expect(Math.abs(jump.ppb)).toBeGreaterThanOrEqual(5_000_000);
    expect(Math.abs(jump.ppb)).toBeLessThanOrEqual(40_000_000);
    expect(jump.at).toBeLessThan(FAULTS_UNTIL);
  }
  expect(new Set(jumps.map((j) => Math.sign(j.ppb)))).toEqual(new Set([1, -1]));
  const named = faultNames(plans.find((p) => p.marketsOff.length > 0 && p.jumps.length > 0)!);
  expect(named.some((n) => /^market-\d+-off /.test(n))).toBe(true);
  expect(named.some((n) => /^jump market \d+ [+-]\d+\.\d%/.test(n))).toBe(true);
});
