import { Decimal } from 'decimal.js';

/**
 * decimal.js configured for report ratios: 40 significant digits, half-even rounding. Its own
 * clone, so nothing else in the process can change the precision under us (determinism).
 */
export const RatioDecimal = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

/** A value of `RatioDecimal`. */
export type RatioValue = InstanceType<typeof RatioDecimal>;

/** Fraction digits of every ratio and percentage in metrics and reports. */
export const RATIO_DECIMALS = 6;

/**
 * Formats a ratio with a fixed number of fraction digits (half-even), never as `-0.000000`.
 *
 * @example
 * formatRatio(new RatioDecimal(2).sqrt()) // "1.414214"
 */
export function formatRatio(value: RatioValue, places = RATIO_DECIMALS): string {
  const text = value.toFixed(places);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/**
 * `numerator / denominator` (bigints, e.g. two x18 values) as a `RatioDecimal`.
 * The caller guarantees `denominator !== 0n`.
 */
export function bigintRatio(numerator: bigint, denominator: bigint): RatioValue {
  return new RatioDecimal(numerator.toString()).div(denominator.toString());
}
