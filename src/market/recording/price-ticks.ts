/**
 * Prices as integer ticks of `10^-priceExpo` (format version 2): a decimal string becomes ticks
 * only when the ticks give exactly that string back, so a recording stays exact whatever the
 * venue sent (anything else is kept literally).
 */

import { TickTable } from './tick-table.ts';

const POWERS: number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * The ticks of `price` on a `10^-priceExpo` grid, or undefined when `formatTicks` would not give
 * the same string back (more fraction digits than the grid, trailing zeros, a sign, an exponent,
 * beyond 2^53).
 */
export function toTicks(price: string, priceExpo: number): number | undefined {
  if (!(priceExpo >= 0 && priceExpo < POWERS.length)) return undefined;
  const length = price.length;
  if (length === 0) return undefined;
  let whole = 0;
  let i = 0;
  let code = price.charCodeAt(0);
  // No leading zeros (except a lone 0 before the point).
  if (code === 48 && length > 1 && price.charCodeAt(1) !== 46) return undefined;
  for (; i < length; i++) {
    code = price.charCodeAt(i);
    if (code === 46) break;
    if (code < 48 || code > 57) return undefined;
    whole = whole * 10 + (code - 48);
  }
  if (i === 0) return undefined;
  let fraction = 0;
  let digits = 0;
  if (i < length) {
    // A point must be followed by digits, the last one not 0.
    if (i === length - 1 || price.charCodeAt(length - 1) === 48) return undefined;
    for (i += 1; i < length; i++) {
      code = price.charCodeAt(i);
      if (code < 48 || code > 57) return undefined;
      fraction = fraction * 10 + (code - 48);
      digits += 1;
    }
    if (digits > priceExpo) return undefined;
  }
  const ticks =
    whole * (POWERS[priceExpo] as number) + fraction * (POWERS[priceExpo - digits] as number);
  return Number.isSafeInteger(ticks) ? ticks : undefined;
}

/** Grids up to here format through a table of fraction texts (10^4 entries at most). */
const TABLE_EXPO = 4;
// Per grid, the fraction texts by fraction ticks (`.05`, `.5`, `` for 0), made on first use.
const FRACTIONS: (string[] | undefined)[] = [];
// Whole parts below this are kept as strings once made (a book's prices share a few of them).
const WHOLE_CACHE = 1 << 16;
const WHOLES: (string | undefined)[] = new Array<string | undefined>(WHOLE_CACHE);

function fractionsOf(priceExpo: number): string[] {
  let table = FRACTIONS[priceExpo];
  if (table === undefined) {
    const scale = POWERS[priceExpo] as number;
    table = new Array<string>(scale);
    for (let fraction = 0; fraction < scale; fraction++)
      table[fraction] = fraction === 0 ? '' : `.${slowFraction(fraction, priceExpo)}`;
    FRACTIONS[priceExpo] = table;
  }
  return table;
}

function wholeText(whole: number): string {
  if (whole >= WHOLE_CACHE) return String(whole);
  return (WHOLES[whole] ??= String(whole));
}

/** The digits after the point of `fraction` ticks of a `10^-digits` grid, trailing zeros dropped. */
function slowFraction(fraction: number, digits: number): string {
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  return String(fraction).padStart(digits, '0');
}

/**
 * The canonical decimal string of `ticks` on a `10^-priceExpo` grid (no trailing zeros). On a
 * grid of up to 4 digits the fraction comes from a table and small whole parts from a cache, so
 * a level's price or quantity costs one short string (a tenth of what `String` of a fractional
 * double costs): every level a strategy reads is made here.
 */
export function formatTicks(ticks: number, priceExpo: number): string {
  if (priceExpo === 0) return ticks < WHOLE_CACHE && ticks >= 0 ? wholeText(ticks) : String(ticks);
  const scale = POWERS[priceExpo] as number;
  const whole = Math.floor(ticks / scale);
  const fraction = ticks - whole * scale;
  if (fraction === 0) return whole >= 0 ? wholeText(whole) : String(whole);
  if (priceExpo <= TABLE_EXPO && whole >= 0)
    return wholeText(whole) + (fractionsOf(priceExpo)[fraction] as string);
  return `${whole}.${slowFraction(fraction, priceExpo)}`;
}

// The price texts made last (`TickTable`), 65536 a grid (768 KB of table, made at first use):
// the books of a backtest share one grid's table, and with 4096 slots twenty markets' prices
// pushed each other out (a best price read missed the table 39 times in 100 in the benchmark's
// best bid+ask backtest; with 65536, 12 in 100 in a process's first such backtest, then under 1
// in 1000).
const PRICE_TEXTS = new TickTable<string>(16, '', formatTicks);

/**
 * `formatTicks(ticks, priceExpo)` for a price, from a table of the texts made last: a book's
 * prices come back snapshot after snapshot, and each read made the same strings again.
 * Quantities, which seldom repeat, do not go through it.
 */
export function priceText(ticks: number, priceExpo: number): string {
  return PRICE_TEXTS.get(ticks, priceExpo);
}
