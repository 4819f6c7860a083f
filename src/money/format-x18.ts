import { X18_DECIMALS } from './constants.ts';

/** `value / 10^decimals` as a canonical decimal string (see {@link formatX18}). */
function formatScaled(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return negative ? `-${text}` : text;
}

/**
 * Formats an x18 bigint as the canonical decimal string: no trailing fraction zeros, no `.`
 * for whole numbers, a leading `-` for negative values (PnL can be negative).
 *
 * @example
 * formatX18(2094000000000000n) // "0.002094"
 */
export function formatX18(value: bigint): string {
  return formatScaled(value, X18_DECIMALS);
}

/**
 * Formats an x36 bigint (an exact product of two x18 values, such as `notionalX36`) as the
 * canonical decimal string, exactly: nothing is rounded, however many digits it takes.
 *
 * @example
 * formatX36(notionalX36(5n * 10n ** 17n, 3001n * 10n ** 17n)) // "150.05"
 */
export function formatX36(value: bigint): string {
  return formatScaled(value, 2 * X18_DECIMALS);
}
