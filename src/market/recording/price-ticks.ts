/**
 * Prices as integer ticks of `10^-priceExpo` (format version 2): a decimal string becomes ticks
 * only when the ticks give exactly that string back, so a recording stays exact whatever the
 * venue sent (anything else is kept literally).
 */

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

/** The canonical decimal string of `ticks` on a `10^-priceExpo` grid (no trailing zeros). */
export function formatTicks(ticks: number, priceExpo: number): string {
  if (priceExpo === 0) return String(ticks);
  const scale = POWERS[priceExpo] as number;
  const whole = Math.floor(ticks / scale);
  let fraction = ticks - whole * scale;
  if (fraction === 0) return String(whole);
  let digits = priceExpo;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  return `${whole}.${String(fraction).padStart(digits, '0')}`;
}
