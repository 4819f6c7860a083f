import { X18_SCALE } from '../../src/money/index.ts';

/**
 * The liquidation price of an account holding one long, worked out apart from the model
 * (docs/margin.md): cash `C` and a long `q` at entry `e` are liquidated while
 * `C + q(p − e) < q·p·f`, i.e. `p < (q·e − C) / (q(1 − f))`; the highest such x18 price.
 * Undefined when no positive price liquidates it.
 */
export function longLiquidationX18(
  cashX18: bigint,
  amountX18: bigint,
  entryX18: bigint,
  maintenanceFractionX18: bigint,
): bigint | undefined {
  const numerator = amountX18 * entryX18 * X18_SCALE - cashX18 * X18_SCALE * X18_SCALE;
  const denominator = amountX18 * (X18_SCALE - maintenanceFractionX18);
  if (numerator <= 0n) return undefined;
  // Highest p with p·denominator < numerator.
  const highest = (numerator - 1n) / denominator;
  return highest > 0n ? highest : undefined;
}
