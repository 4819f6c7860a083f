/**
 * A side's quantities as one fixed-width block (format version 4): every quantity as an integer
 * number of `10^-scale` units, written in `width` base-64 digits, no separators:
 * `<scale><width><digits…>`, `scale` one base-36 digit (0-f), `width` one digit (1-8).
 *
 * Why: on a book whose sizes all change between snapshots, the sizes are what is left to store
 * once prices are one shift per side, and decimal text under gzip spends about 1.3 bits more per
 * size than the numbers hold (digits that use part of their range, a point, a separator).
 * Fixed-width base-64 leaves gzip little to add: 0.55 to 0.347 of a naive recording's bytes on
 * the recording bench's random-size books.
 */
import { formatTicks, toTicks } from './price-ticks.ts';

/** Digit values 0-63, in this order (no character JSON escapes, none of `@ * -` leading a side). */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
const VALUE_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i++) VALUE_OF[DIGITS.charCodeAt(i)] = i;

/** 64^8 = 2^48: eight digits stay within a safe integer. */
const MAX_WIDTH = 8;
/** Scales a tick grid holds (see `toTicks`). */
const MAX_SCALE = 15;
/** The scale digits, 0-15 in base 36 as `Number.prototype.toString(36)` writes them. */
const SCALES = '0123456789abcdef';

/**
 * The block of `quantities` (decimal strings), or undefined when one of them would not read back
 * as the same string (trailing zeros, a sign, more than 15 fraction digits, beyond 2^48 units).
 */
export function encodeQuantityBlock(quantities: readonly string[]): string | undefined {
  let scale = 0;
  for (const quantity of quantities) {
    const point = quantity.indexOf('.');
    if (point >= 0 && quantity.length - point - 1 > scale) scale = quantity.length - point - 1;
  }
  if (scale > MAX_SCALE) return undefined;
  const units = new Array<number>(quantities.length);
  let largest = 0;
  for (let i = 0; i < quantities.length; i++) {
    const value = toTicks(quantities[i] as string, scale);
    if (value === undefined) return undefined;
    units[i] = value;
    if (value > largest) largest = value;
  }
  let width = 1;
  while (width <= MAX_WIDTH && largest >= 64 ** width) width += 1;
  if (width > MAX_WIDTH) return undefined;
  let out = scale.toString(36) + String(width);
  for (const value of units) {
    let digits = '';
    let rest = value;
    for (let d = 0; d < width; d++) {
      digits = DIGITS[rest % 64] + digits;
      rest = Math.floor(rest / 64);
    }
    out += digits;
  }
  return out;
}

/**
 * What is wrong with the block of `count` quantities that starts at `from` in `raw` (and runs to
 * its end), or undefined when it reads: checked without decoding, for a block that a later one
 * replaces before anything reads it.
 */
export function quantityBlockProblem(raw: string, from: number, count: number): string | undefined {
  const scale = SCALES.indexOf(raw.charAt(from));
  const width = raw.charCodeAt(from + 1) - 48;
  if (scale < 0 || raw.length <= from || !(width >= 1 && width <= MAX_WIDTH))
    return `quantity block ${JSON.stringify(raw.slice(from, from + 2))}: expected a scale (0-f) and a width (1-8)`;
  const digitsFrom = from + 2;
  if (raw.length - digitsFrom !== count * width)
    return `quantity block: expected ${count} quantities of ${width} digits, got ${raw.length - digitsFrom} digits`;
  for (let at = digitsFrom; at < raw.length; at++) {
    const code = raw.charCodeAt(at);
    if (code >= 128 || (VALUE_OF[code] as number) < 0)
      return `[${Math.floor((at - digitsFrom) / width)}]: quantity digit ${JSON.stringify(raw.charAt(at))} is not base-64`;
  }
  return undefined;
}

/**
 * The `count` quantities of the block that starts at `from` in `raw` (and runs to its end), as
 * the decimal strings that were encoded; a string saying what is wrong when it is malformed
 * (`quantityBlockProblem`).
 */
export function decodeQuantityBlock(raw: string, from: number, count: number): string[] | string {
  const problem = quantityBlockProblem(raw, from, count);
  if (problem !== undefined) return problem;
  const scale = SCALES.indexOf(raw.charAt(from));
  const width = raw.charCodeAt(from + 1) - 48;
  const out = new Array<string>(count);
  let at = from + 2;
  for (let i = 0; i < count; i++) {
    let value = 0;
    for (let d = 0; d < width; d++) value = value * 64 + (VALUE_OF[raw.charCodeAt(at++)] as number);
    out[i] = formatTicks(value, scale);
  }
  return out;
}

/**
 * The `count` quantities of the block that starts at `from` in `raw` as numbers, no string made:
 * for level `i`, its units at `nums[at + 3 * i + 1]` and the block's scale at
 * `nums[at + 3 * i + 2]` (`formatTicks(units, scale)` is the quantity that was encoded). Returns
 * what is wrong when the block is malformed (`quantityBlockProblem`), else undefined.
 */
export function decodeQuantityUnits(
  raw: string,
  from: number,
  count: number,
  nums: Float64Array,
  at: number,
): string | undefined {
  const scale = scaleOf(raw.charCodeAt(from));
  const width = raw.charCodeAt(from + 1) - 48;
  if (scale < 0 || !(width >= 1 && width <= MAX_WIDTH) || raw.length - from - 2 !== count * width)
    return quantityBlockProblem(raw, from, count);
  let digit = from + 2;
  // A digit that is not base-64 turns `bad` negative, one test per block rather than per digit:
  // its value is -1, or its code is 128 or more (127 − code < 0; the value read at code & 127
  // is then wrong, and the block refused).
  let bad = 0;
  for (let i = 0, out = at + 1; i < count; i++, out += 3) {
    let value = 0;
    for (let d = 0; d < width; d++) {
      const code = raw.charCodeAt(digit++);
      const v = VALUE_OF[code & 127] as number;
      bad |= v | (127 - code);
      value = value * 64 + v;
    }
    nums[out] = value;
    nums[out + 1] = scale;
  }
  return bad < 0 ? quantityBlockProblem(raw, from, count) : undefined;
}

/** The scale of a block's scale digit (`0`-`9`, `a`-`f`, as in `SCALES`), or -1. */
function scaleOf(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  return code >= 97 && code <= 102 ? code - 87 : -1;
}

/**
 * The first quantity of the block that starts at `from` in `raw` as units (its scale in
 * `scaleOut[0]`), or -1 when the block does not start with a well-formed one (the full decoding
 * then reports it).
 */
export function firstQuantityUnits(raw: string, from: number, scaleOut: Float64Array): number {
  const scale = scaleOf(raw.charCodeAt(from));
  const width = raw.charCodeAt(from + 1) - 48;
  if (scale < 0 || !(width >= 1 && width <= MAX_WIDTH) || raw.length < from + 2 + width) return -1;
  let value = 0;
  for (let at = from + 2; at < from + 2 + width; at++) {
    const code = raw.charCodeAt(at);
    const digit = code < 128 ? (VALUE_OF[code] as number) : -1;
    if (digit < 0) return -1;
    value = value * 64 + digit;
  }
  scaleOut[0] = scale;
  return value;
}
