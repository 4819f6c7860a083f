import type { QuoteLevel } from '../../domain/index.ts';
import { parseDecimalToX18 } from '../../money/index.ts';
import { formatTicks, priceText } from './price-ticks.ts';
import { TickTable } from './tick-table.ts';

/** Numbers per level in {@link SideLevels.nums}: price ticks, quantity units, quantity scale. */
export const PER_LEVEL = 3;

/** A quantity scale meaning "not units: the level's text is in `quantityTexts`". */
export const LITERAL = -1;

/**
 * A quote side of format version 2 and later as numbers: per level (`PER_LEVEL` entries of
 * `nums` from `from`, a stretch of a shared chunk: `level-arena.ts`) the price in ticks of the
 * market's `10^-expo` grid (NaN for a literal price, kept in `literals`), the quantity as
 * integer units of `10^-scale`, and that scale (`LITERAL` for a quantity kept as its text in
 * `quantityTexts`: one that units would not give back exactly).
 *
 * Decimal strings are made only when a level is read (`level`, `levels`), exactly the text the
 * recording holds; the best price, the x18 levels and the numeric view never make one.
 */
export class SideLevels {
  constructor(
    readonly expo: number | undefined,
    readonly nums: Float64Array,
    readonly from: number,
    readonly count: number,
    readonly literals: readonly (string | undefined)[] | undefined,
    readonly quantityTexts: readonly (string | undefined)[] | undefined,
  ) {}

  /** Level `i`'s price in ticks (NaN for a literal price). */
  tick(i: number): number {
    return this.nums[this.from + PER_LEVEL * i] as number;
  }

  /** Level `i`'s quantity units (of `10^-scale(i)`). */
  units(i: number): number {
    return this.nums[this.from + PER_LEVEL * i + 1] as number;
  }

  /** Level `i`'s quantity scale, or `LITERAL`. */
  scale(i: number): number {
    return this.nums[this.from + PER_LEVEL * i + 2] as number;
  }

  /** Level `i`'s price as the recording's text. */
  price(i: number): string {
    return priceOf(this.tick(i), this.expo as number, this.literals, i);
  }

  /** Level `i`'s quantity as the recording's text. */
  quantity(i: number): string {
    return quantityOf(this.units(i), this.scale(i), this.quantityTexts, i);
  }

  /** Level `i` (0 = best) with its two strings, without building the others. */
  level(i: number): QuoteLevel | undefined {
    return i < this.count ? { price: this.price(i), quantity: this.quantity(i) } : undefined;
  }

  /** The first level's price as x18, without building the levels. */
  bestX18(): bigint | undefined {
    if (this.count === 0) return undefined;
    const tick = this.tick(0);
    if (Number.isNaN(tick)) return parseDecimalToX18(this.literals?.[0] as string, 'quote price');
    // tick × 10^-expo, exactly (expo < 16 for a tick price).
    return tickX18(tick, this.expo as number);
  }

  /**
   * The levels as x18, flattened (price then quantity of each), exactly `parseDecimalToX18` of
   * what `levels()` gives: ticks and units times their grid's unit in x18, with no string built
   * or parsed (beyond 2^40 ticks or on a grid finer than 10^-15, or for a literal, the text is
   * parsed, so both paths always agree). Undefined when a level is not a plain decimal: the
   * caller reads `levels()` then, and reports it.
   */
  levelsX18(): bigint[] | undefined {
    const count = this.count;
    const expo = this.expo;
    const tickX18 = expo === undefined || expo > 15 ? undefined : X18_OF_EXPO[expo];
    const out = new Array<bigint>(2 * count);
    for (let i = 0; i < count; i++) {
      const tick = this.tick(i);
      const price =
        !Number.isNaN(tick) && tickX18 !== undefined && tick <= MAX_FAST_TICK
          ? BigInt(tick) * tickX18
          : textX18(this.price(i));
      const scale = this.scale(i);
      const quantity =
        scale === LITERAL
          ? textX18(this.quantity(i))
          : BigInt(this.units(i)) * (FRACTION_SCALE[scale] as bigint);
      if (price === undefined || quantity === undefined) return undefined;
      out[2 * i] = price;
      out[2 * i + 1] = quantity;
    }
    return out;
  }

  /**
   * The highest (`highest`) or the lowest level price as x18: exactly the best price of
   * `levelsX18()`, whatever the levels' order, comparing ticks and making one bigint (a mark
   * reads a side every snapshot). Undefined for no level; null when `levelsX18()` would parse a
   * text for a level (a literal price or quantity, a tick beyond 2^40, a grid finer than
   * 10^-15): the caller reads `levelsX18()` then, which also tells a malformed one.
   */
  topX18(highest: boolean): bigint | undefined | null {
    const count = this.count;
    if (count === 0) return undefined;
    const expo = this.expo;
    if (expo === undefined || expo > 15) return null;
    let best = this.tick(0);
    for (let i = 0; i < count; i++) {
      const tick = this.tick(i);
      // (NaN, a literal price, fails the comparison.)
      if (!(tick <= MAX_FAST_TICK) || this.scale(i) === LITERAL) return null;
      if (highest ? tick > best : tick < best) best = tick;
    }
    // tick × 10^(18 − expo) grows with the tick: the best tick's is the best x18 price.
    return tickX18(best, expo);
  }

  /**
   * Writes the levels into `into` as numbers, price then quantity of each, as many as fit;
   * returns how many levels were written. Signals for indicators (a double's rounding), never
   * amounts: a literal text is read with `Number`.
   */
  numbers(into: Float64Array): number {
    const count = Math.min(this.count, Math.floor(into.length / 2));
    const grid = this.expo === undefined ? 1 : (POWERS[this.expo] as number);
    for (let i = 0; i < count; i++) {
      const tick = this.tick(i);
      into[2 * i] = Number.isNaN(tick) ? Number(this.literals?.[i]) : tick / grid;
      const scale = this.scale(i);
      into[2 * i + 1] =
        scale === LITERAL
          ? Number(this.quantityTexts?.[i])
          : this.units(i) / (POWERS[scale] as number);
    }
    return count;
  }

  /**
   * The levels with their strings, made now: a new array each call (the recorded quote that
   * reads them keeps it), so a side kept for the deltas after it holds no strings.
   */
  levels(): QuoteLevel[] {
    const count = this.count;
    const nums = this.nums;
    const expo = this.expo as number;
    const levels = new Array<QuoteLevel>(count);
    for (let i = 0, at = this.from; i < count; i++, at += PER_LEVEL) {
      // `price(i)` and `quantity(i)`, the side's fields read once for all levels.
      levels[i] = {
        price: priceOf(nums[at] as number, expo, this.literals, i),
        quantity: quantityOf(nums[at + 1] as number, nums[at + 2] as number, this.quantityTexts, i),
      };
    }
    return levels;
  }
}

/** Level `i`'s price text: its tick's on the grid `expo`, or its literal (tick NaN). */
function priceOf(
  tick: number,
  expo: number,
  literals: readonly (string | undefined)[] | undefined,
  i: number,
): string {
  return Number.isNaN(tick) ? (literals?.[i] as string) : priceText(tick, expo);
}

/** Level `i`'s quantity text: `units` of `10^-scale`, or its text (scale `LITERAL`). */
function quantityOf(
  units: number,
  scale: number,
  texts: readonly (string | undefined)[] | undefined,
  i: number,
): string {
  return scale === LITERAL ? (texts?.[i] as string) : formatTicks(units, scale);
}

// Ticks up to here divide by their grid exactly in doubles (formatTicks), with room to spare.
const MAX_FAST_TICK = 2 ** 40;

const POWERS: readonly number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** 10^(18 − k) for k fraction digits (0 to 15). */
const FRACTION_SCALE: readonly bigint[] = Array.from(
  { length: 16 },
  (_, digits) => 10n ** BigInt(18 - digits),
);

/** 10^(18 − expo): one tick of a `10^-expo` grid in x18. */
export const X18_OF_EXPO: readonly bigint[] = Array.from(
  { length: 19 },
  (_, expo) => 10n ** BigInt(18 - expo),
);

// The x18 values of the ticks made last (`TickTable`), 4096 a grid.
const TICK_X18 = new TickTable<bigint>(
  12,
  0n,
  (tick, expo) => BigInt(tick) * (X18_OF_EXPO[expo] as bigint),
);

/**
 * `tick` ticks of a `10^-expo` grid as x18 (`tick × 10^(18 − expo)`, expo 0 to 18, tick a safe
 * integer), from a table of the values made last: the best prices of a moving book come back
 * within a few snapshots, and a chart's tops and marks read them every snapshot; a kept value
 * costs no bigint made.
 */
export function tickX18(tick: number, expo: number): bigint {
  return TICK_X18.get(tick, expo);
}

/** `parseDecimalToX18(text)`, or undefined for a text it rejects. */
function textX18(text: string): bigint | undefined {
  try {
    return parseDecimalToX18(text);
  } catch {
    return undefined;
  }
}

/** A side without levels (`""`). */
export const NO_SIDE = new SideLevels(undefined, new Float64Array(0), 0, 0, undefined, undefined);
