import { X18_DECIMALS } from './constants.ts';
import { formatX18 } from './format-x18.ts';

/** Money as people read it: to the cent. */
export const MONEY_DECIMALS = 2;

/**
 * An x18 value rounded half away from zero to `decimals` places, for a person to read (logs,
 * terminal summaries): a price to its market's tick (`decimals` = `priceExpo`), an amount to its
 * quantum (`amountExpo`), money to the cent (`MONEY_DECIMALS`). With `fixed` every value shows
 * exactly `decimals` places (columns of money line up); without it trailing zeros are dropped.
 * Never `-0`. Display only: what is booked stays exact.
 *
 * @example
 * displayX18(-729_670_039_893_902_082n, MONEY_DECIMALS, true) // "-0.73"
 * displayX18(3_000_696_792_123_000_000_000n, 6)              // "3000.696792"
 */
export function displayX18(valueX18: bigint, decimals: number, fixed = false): string {
  const places = Math.max(0, Math.min(X18_DECIMALS, Math.trunc(decimals)));
  const unit = 10n ** BigInt(X18_DECIMALS - places);
  const magnitude = valueX18 < 0n ? -valueX18 : valueX18;
  const rounded = ((magnitude + unit / 2n) / unit) * unit;
  const text = formatX18(valueX18 < 0n && rounded !== 0n ? -rounded : rounded);
  if (!fixed || places === 0) return text;
  const [whole, fraction = ''] = text.split('.');
  return `${whole ?? text}.${fraction.padEnd(places, '0')}`;
}
