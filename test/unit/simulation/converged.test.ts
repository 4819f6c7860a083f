/**
 * I4's fee rule (src/simulation/converged.ts): the venue charges each fill its fee rounded up and
 * reports no fee, so the bot's fee may differ from the venue's by up to one x18 unit a fill.
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
  feeX18: fillFeeX18(amountX18, PRICE, MAKER),
}));
const venue = { feesPaidX18: fills.reduce((sum, fill) => sum + fill.feeX18, 0n), fills };

it('accepts the fee of both fills priced as one amount: one unit below the venue, as in seed 42716', () => {
  const seenAsOne = fillFeeX18(AMOUNTS[0]! + AMOUNTS[1]!, PRICE, MAKER);
  expect(venue.feesPaidX18 - seenAsOne).toBe(1n);
  expect(feeMatches(seenAsOne, venue)).toBe(true);
  expect(feeMatches(venue.feesPaidX18, venue)).toBe(true);
});

it('counts a fee off the venue by more than a unit a fill, either way', () => {
  expect(feeMatches(venue.feesPaidX18 + 2n, venue)).toBe(true);
  expect(feeMatches(venue.feesPaidX18 + 3n, venue)).toBe(false);
  expect(feeMatches(venue.feesPaidX18 - 2n, venue)).toBe(true);
  expect(feeMatches(venue.feesPaidX18 - 3n, venue)).toBe(false);
  // A rate of 7 bp instead of 5 bp: far off.
  const taker = fillFeeX18(AMOUNTS[0]! + AMOUNTS[1]!, PRICE, 700_000_000_000_000n);
  expect(feeMatches(taker, venue)).toBe(false);
});
