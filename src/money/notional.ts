import { X18_SCALE } from './constants.ts';

/**
 * The exact notional of an order, `amount × price`, at x36 scale: nothing is rounded.
 * Compare against limits with `notionalExceeds` rather than rounding first.
 */
export function notionalX36(amountX18: bigint, priceX18: bigint): bigint {
  return amountX18 * priceX18;
}

/**
 * The notional `amountX18 × priceX18 / 10^18` in x18, rounded in the stated direction
 * (`floor` by default; `ceil` when a limit must not be understated).
 */
export function notionalX18(
  amountX18: bigint,
  priceX18: bigint,
  rounding: 'floor' | 'ceil' = 'floor',
): bigint {
  const product = amountX18 * priceX18;
  const quotient = product / X18_SCALE;
  const exact = quotient * X18_SCALE === product;
  if (exact || rounding === 'floor') return product >= 0n || exact ? quotient : quotient - 1n;
  return product >= 0n ? quotient + 1n : quotient;
}

/** True when the exact notional `amount × price` is strictly above `limitX18`. */
export function notionalExceeds(amountX18: bigint, priceX18: bigint, limitX18: bigint): boolean {
  return amountX18 * priceX18 > limitX18 * X18_SCALE;
}
