import { X18_DECIMALS } from './constants.ts';

/**
 * Formats an x18 bigint as the canonical decimal string: no trailing fraction zeros, no `.`
 * for whole numbers, a leading `-` for negative values (PnL can be negative).
 *
 * @example
 * formatX18(2094000000000000n) // "0.002094"
 */
export function formatX18(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(X18_DECIMALS + 1, '0');
  const whole = digits.slice(0, -X18_DECIMALS);
  const fraction = digits.slice(-X18_DECIMALS).replace(/0+$/, '');
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return negative ? `-${text}` : text;
}
