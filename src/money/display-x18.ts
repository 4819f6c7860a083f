import { X18_DECIMALS } from './constants.ts';
import { formatX18 } from './format-x18.ts';

/** Money as people read it: to the cent. */
export const MONEY_DECIMALS = 2;

/**
 * An x18 value rounded half-even to `decimals` places, for a person to read (logs, terminal
 * summaries): a price to its market's tick (`decimals` = `priceExpo`), an amount to its quantum
 * (`amountExpo`), money to the cent (`MONEY_DECIMALS`). With `fixed` every value shows exactly
 * `decimals` places (columns of money line up); without it trailing zeros are dropped. Never
 * `-0`. Display only: what is booked stays exact. Half-even, as `displayDecimal` rounds the
 * report pages' and terminal summaries' decimal strings, so one figure reads the same in a log
 * line, a summary and a report (docs/figures.md, "Figures people read").
 *
 * @example
 * displayX18(-729_670_039_893_902_082n, MONEY_DECIMALS, true) // "-0.73"
 * displayX18(5_000_000_000_000_000n, MONEY_DECIMALS, true)     // "0.00" (half-even)
 * displayX18(3_000_696_792_123_000_000_000n, 6)              // "3000.696792"
 */
export function displayX18(valueX18: bigint, decimals: number, fixed = false): string {
  const places = Math.max(0, Math.min(X18_DECIMALS, Math.trunc(decimals)));
  const unit = 10n ** BigInt(X18_DECIMALS - places);
  const magnitude = valueX18 < 0n ? -valueX18 : valueX18;
  const units = magnitude / unit;
  const twice = (magnitude % unit) * 2n;
  const up = twice > unit || (twice === unit && units % 2n === 1n);
  const rounded = (up ? units + 1n : units) * unit;
  const text = formatX18(valueX18 < 0n && rounded !== 0n ? -rounded : rounded);
  if (!fixed || places === 0) return text;
  const [whole, fraction = ''] = text.split('.');
  return `${whole ?? text}.${fraction.padEnd(places, '0')}`;
}
