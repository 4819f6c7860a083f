import { quantumX18 } from '../money/index.ts';
import type { SeededRandom } from './random.ts';

/** Relative changes in the simulation are integers in parts per billion. */
export const PPB = 1_000_000_000n;

const TWO_POW_32 = 2n ** 32n;
// A single step can at most halve the price: keeps the mid positive whatever the volatility.
const MIN_SHOCK_PPB = -PPB / 2n;

/**
 * Draws one step's relative price shock in parts per billion: a normal deviate times the
 * per-step volatility, truncated toward zero (symmetric, so no drift from rounding).
 *
 * @param volatilityPpb - the per-step relative standard deviation in parts per billion.
 */
export function drawShockPpb(rng: SeededRandom, volatilityPpb: bigint): bigint {
  const shock = (rng.nextNormalScaled() * volatilityPpb) / TWO_POW_32;
  return shock < MIN_SHOCK_PPB ? MIN_SHOCK_PPB : shock;
}

/**
 * Snaps a positive price to the nearest multiple of `quantumX18` (halves up), never below one
 * quantum: the mid must stay a positive, quotable price. Takes the quantum, not the expo, because
 * it runs once per market per step.
 */
export function snapToQuantum(priceX18: bigint, quantumX18: bigint): bigint {
  const snapped = ((priceX18 + quantumX18 / 2n) / quantumX18) * quantumX18;
  return snapped < quantumX18 ? quantumX18 : snapped;
}

/** `snapToQuantum` for a market's price expo. */
export function snapPriceToGrid(priceX18: bigint, priceExpo: number): bigint {
  return snapToQuantum(priceX18, quantumX18(priceExpo));
}

/**
 * Applies a shock to the mid with bigint math only: `mid × (1 + shock)`, snapped to the grid.
 *
 * @param priceQuantumX18 - the market's price quantum, `quantumX18(priceExpo)`.
 * @example
 * nextMidX18(3000n * 10n ** 18n, 1_000_000n, 10n ** 12n) // 3003 × 10^18 (shock +0.1%)
 */
export function nextMidX18(midX18: bigint, shockPpb: bigint, priceQuantumX18: bigint): bigint {
  return snapToQuantum((midX18 * (PPB + shockPpb)) / PPB, priceQuantumX18);
}
