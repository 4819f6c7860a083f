/**
 * I4's fee rule (src/simulation/converged.ts): the venue charges each fill its fee rounded up and
 * reports no fee, so the bot's fee may differ from the venue's by up to one x18 unit a fill; nor
 * does it say which fills made liquidity, so until the bot has journaled the order's venue id it
 * books every fill at the taker rate: a maker fill made until then may be charged at the taker
 * rate, and nothing else may differ.
 */
import { expect, it } from 'vitest';
import { feeMatches } from '../../../src/simulation/converged.ts';
import { fillFeeX18 } from '../../../src/money/fee.ts';

/** Seed 42716's order 36: two maker fills at one price, 5 bp. */
const PRICE = 3_008_233_371_000_000_000_000n;
const MAKER = 500_000_000_000_000n;
const AMOUNTS = [15_729_671_000_000_000n, 133_870_129_000_000_000n];
const fills = AMOUNTS.map((amountX18, i) => ({
  amountX18,
  priceX18: PRICE,
  feeX18: fillFeeX18(amountX18, PRICE, MAKER),
  liquidity: 'MAKER' as const,
  at: 1_000 + i,
}));
const venue = { feesPaidX18: fills.reduce((sum, fill) => sum + fill.feeX18, 0n), fills };
/** The bot journaled the order's venue id before both fills. */
const KNOWN_BEFORE = 500;

it('accepts the fee of both fills priced as one amount: one unit below the venue, as in seed 42716', () => {
  const seenAsOne = fillFeeX18(AMOUNTS[0]! + AMOUNTS[1]!, PRICE, MAKER);
  expect(venue.feesPaidX18 - seenAsOne).toBe(1n);
  expect(feeMatches(seenAsOne, venue, MAKER, KNOWN_BEFORE)).toBe(true);
  expect(feeMatches(venue.feesPaidX18, venue, MAKER, KNOWN_BEFORE)).toBe(true);
});

it('counts a fee off the venue by more than a unit a fill, either way', () => {
  expect(feeMatches(venue.feesPaidX18 + 2n, venue, MAKER, KNOWN_BEFORE)).toBe(true);
  expect(feeMatches(venue.feesPaidX18 + 3n, venue, MAKER, KNOWN_BEFORE)).toBe(false);
  expect(feeMatches(venue.feesPaidX18 - 2n, venue, MAKER, KNOWN_BEFORE)).toBe(true);
  expect(feeMatches(venue.feesPaidX18 - 3n, venue, MAKER, KNOWN_BEFORE)).toBe(false);
  // A rate of 7 bp instead of 5 bp: far off.
  const taker = fillFeeX18(AMOUNTS[0]! + AMOUNTS[1]!, PRICE, 700_000_000_000_000n);
  expect(feeMatches(taker, venue, MAKER, KNOWN_BEFORE)).toBe(false);
});

/** A SOL-USD order (maker 2 bp, taker 5 bp): a fill that took liquidity at once, then one made. */
const SOL_TAKER = 500_000_000_000_000n;
const SOL_MAKER = 200_000_000_000_000n;
const crossed = {
  amountX18: 2_660_000_000_000_000_000n,
  priceX18: 150_075_000_000_000_000_000n,
  liquidity: 'TAKER' as const,
  at: 1_000,
};
const rested = {
  amountX18: 3_100_000_000_000_000_000n,
  priceX18: 150_150_000_000_000_000_000n,
  liquidity: 'MAKER' as const,
  at: 9_000,
};
const sol = {
  fills: [
    { ...crossed, feeX18: fillFeeX18(crossed.amountX18, crossed.priceX18, SOL_TAKER) },
    { ...rested, feeX18: fillFeeX18(rested.amountX18, rested.priceX18, SOL_MAKER) },
  ],
  feesPaidX18:
    fillFeeX18(crossed.amountX18, crossed.priceX18, SOL_TAKER) +
    fillFeeX18(rested.amountX18, rested.priceX18, SOL_MAKER),
};
const bothAtTaker =
  fillFeeX18(crossed.amountX18, crossed.priceX18, SOL_TAKER) +
  fillFeeX18(rested.amountX18, rested.priceX18, SOL_TAKER);

it('accepts the maker fill at the taker rate when the bot journaled the venue id after it (a lookup found both)', () => {
  expect(bothAtTaker).toBeGreaterThan(sol.feesPaidX18);
  expect(feeMatches(bothAtTaker, sol, SOL_TAKER, 10_000)).toBe(true);
  expect(feeMatches(bothAtTaker + 2n, sol, SOL_TAKER, 10_000)).toBe(true);
  expect(feeMatches(bothAtTaker + 3n, sol, SOL_TAKER, 10_000)).toBe(false);
  expect(feeMatches(sol.feesPaidX18, sol, SOL_TAKER, 10_000)).toBe(true);
});

it('counts the maker fill at the taker rate when the bot knew the order rested (its placing answer seen)', () => {
  // The venue id journaled at 1,200, from the placing answer: the fill at 9,000 was the bot's to
  // book as maker. A bot that books every LIMIT fill as taker is caught here.
  expect(feeMatches(bothAtTaker, sol, SOL_TAKER, 1_200)).toBe(false);
  expect(feeMatches(sol.feesPaidX18, sol, SOL_TAKER, 1_200)).toBe(true);
});

it("counts a later fill booked at the order's average price, above or below its own", () => {
  const averageX18 =
    (crossed.amountX18 * crossed.priceX18 + rested.amountX18 * rested.priceX18) /
    (crossed.amountX18 + rested.amountX18);
  const atAverage =
    fillFeeX18(crossed.amountX18, crossed.priceX18, SOL_TAKER) +
    fillFeeX18(rested.amountX18, averageX18, SOL_MAKER);
  // A buy: the average is below the later fill's price, the fee understated.
  expect(atAverage).toBeLessThan(sol.feesPaidX18 - 2n);
  expect(feeMatches(atAverage, sol, SOL_TAKER, 1_200)).toBe(false);
  // A sell crossing down then resting: the average is above the later fill's, the fee overstated.
  const overstated = sol.feesPaidX18 + (sol.feesPaidX18 - atAverage);
  expect(feeMatches(overstated, sol, SOL_TAKER, 1_200)).toBe(false);
});
