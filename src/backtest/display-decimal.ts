import { RatioDecimal } from './ratio-decimal.ts';

/**
 * Rounds a decimal string for display (half-even), never showing `-0`. With `trim`, trailing
 * fraction zeros are dropped (`"64900.5"` stays short); without it, every value has `places`
 * fraction digits so columns of numbers line up. Display only: figures stay exact in the data.
 *
 * @example
 * displayDecimal('1.50275', 4)        // "1.5028"
 * displayDecimal('64900.5', 4, true)  // "64900.5"
 */
export function displayDecimal(value: string, places: number, trim = false): string {
  let text = new RatioDecimal(value).toFixed(places);
  if (trim && text.includes('.')) text = text.replace(/\.?0+$/, '');
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** Formats a 0..1 fraction string as a percentage with 2 digits (`"0.666667"` → `"66.67%"`). */
export function displayShare(fraction: string | null): string {
  if (fraction === null) return 'n/a';
  return `${displayDecimal(new RatioDecimal(fraction).times(100).toString(), 2)}%`;
}
