import { X18_DECIMALS } from './constants.ts';

const ZERO = 48; // '0'

/**
 * Formats an x18 bigint as the canonical decimal string: no trailing fraction zeros, no `.`
 * for whole numbers, a leading `-` for negative values (PnL can be negative).
 *
 * @example
 * formatX18(2094000000000000n) // "0.002094"
 */
export function formatX18(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  const length = digits.length;
  // The fraction's trailing zeros found by a scan, not a regex: the venue formats every price
  // it quotes with this, dozens an answer.
  const fractionStart = length - X18_DECIMALS;
  let end = length;
  while (end > 0 && end > fractionStart && digits.charCodeAt(end - 1) === ZERO) end -= 1;
  let text: string;
  if (fractionStart > 0) {
    const whole = digits.slice(0, fractionStart);
    text = end > fractionStart ? `${whole}.${digits.slice(fractionStart, end)}` : whole;
  } else {
    // Below one: the fraction is the digits after -fractionStart zeros.
    text = end > 0 ? `0.${'0'.repeat(-fractionStart)}${digits.slice(0, end)}` : '0';
  }
  return negative ? `-${text}` : text;
}
