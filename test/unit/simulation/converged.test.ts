/**
 * I4's fee rule (src/simulation/converged.ts): the venue charges each fill its fee rounded up and
 * reports no fee, so the bot's fee may differ from the venue's by up to one x18 unit a fill; nor
 * does it say which fills made liquidity, so a fee the bot could not tell apart is booked at the
 * taker rate: above the venue's, never above the taker rate, never below the venue's.
 */
import { expect, it } from 'vitest';
import { feeMatches } from '../../../src/simulation/converged.ts';
import { fillFeeX18 } from '../../../src/money/fee.ts';

/** Seed 42716's order 36: two maker fills at one price, 5 bp. */
const PRICE = 3_008_233_371_000_000_000_000n;
const MAKER = 500_000_000_000_000n;
const AMOUNTS = [15_729_671_000_000_000n, 133_870_129_000_000_000n];
const fills = AMOUNTS.map((amountX18) => ({
  amountX18,
  priceX18: PRICE,
  feeX18: fillFeeX18(amountX18, PRICE, MAKER),
}));
const venue = { feesPaidX18: fills.reduce((sum, fill) => sum + fill.feeX18, 0n), fills };

it('accepts the fee of both fills priced as one amount: one unit below the venue, as in seed 42716', () => {
  const seenAsOne = fillFeeX18(AMOUNTS[0]! + AMOUNTS[1]!, PRICE, MAKER);
  expect(venue.feesPaidX18 - seenAsOne).toBe(1n);
  expect(feeMatches(seenAsOne, venue, MAKER)).toBe(true);
  expect(feeMatches(venue.feesPaidX18, venue, MAKER)).toBe(true);
});

it('counts a fee off the venue by more than a unit a fill, either way', () => {
  expect(feeMatches(venue.feesPaidX18 + 2n, venue, MAKER)).toBe(true);
  expect(feeMatches(venue.feesPaidX18 + 3n, venue, MAKER)).toBe(false);
  expect(feeMatches(venue.feesPaidX18 - 2n, venue, MAKER)).toBe(true);
  expect(feeMatches(venue.feesPaidX18 - 3n, venue, MAKER)).toBe(false);
  // A rate of 7 bp instead of 5 bp: far off.
  const taker = fillFeeX18(AMOUNTS[0]! + AMOUNTS[1]!, PRICE, 700_000_000_000_000n);
  expect(feeMatches(taker, venue, MAKER)).toBe(false);
});

/** A SOL-USD order (maker 2 bp, taker 5 bp): one fill that took liquidity, then one made. */
const SOL_TAKER = 500_000_000_000_000n;
const SOL_MAKER = 200_000_000_000_000n;
const crossed = { amountX18: 2_660_000_000_000_000_000n, priceX18: 150_075_000_000_000_000_000n };
const rested = { amountX18: 3_100_000_000_000_000_000n, priceX18: 150_150_000_000_000_000_000n };
const sol = {
  fills: [crossed, rested],
  feesPaidX18:
    fillFeeX18(crossed.amountX18, crossed.priceX18, SOL_TAKER) +
    fillFeeX18(rested.amountX18, rested.priceX18, SOL_MAKER),
};
const bothAtTaker =
  fillFeeX18(crossed.amountX18, crossed.priceX18, SOL_TAKER) +
  fillFeeX18(rested.amountX18, rested.priceX18, SOL_TAKER);

it('accepts both fills booked at the taker rate: the bot first learnt of the order by a lookup', () => {
  expect(bothAtTaker).toBeGreaterThan(sol.feesPaidX18);
  expect(feeMatches(bothAtTaker, sol, SOL_TAKER)).toBe(true);
  expect(feeMatches(sol.feesPaidX18, sol, SOL_TAKER)).toBe(true);
  expect(feeMatches(bothAtTaker + 2n, sol, SOL_TAKER)).toBe(true);
  expect(feeMatches(bothAtTaker + 3n, sol, SOL_TAKER)).toBe(false);
});

it("counts a fee below the venue's: the later fill booked at the order's average price", () => {
  const averageX18 =
    (crossed.amountX18 * crossed.priceX18 + rested.amountX18 * rested.priceX18) /
    (crossed.amountX18 + rested.amountX18);
  const atAverage =
    fillFeeX18(crossed.amountX18, crossed.priceX18, SOL_TAKER) +
    fillFeeX18(rested.amountX18, averageX18, SOL_MAKER);
  expect(atAverage).toBeLessThan(sol.feesPaidX18 - 2n);
  expect(feeMatches(atAverage, sol, SOL_TAKER)).toBe(false);
});
