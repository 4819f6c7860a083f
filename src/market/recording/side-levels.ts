import type { QuoteLevel } from '../../domain/index.ts';
import { parseDecimalToX18 } from '../../money/index.ts';
import { formatTicks } from './price-ticks.ts';
import { decodeQuantityBlock, quantityBlockProblem } from './quantity-block.ts';

/**
 * A quote side of format version 2 and later as rebuilt from its delta string, turned into
 * `QuoteLevel` strings only when read: per level three numbers in `nums` (the price in ticks, NaN
 * for a literal price; then the span of its quantity in `texts[level]`, or in `texts` itself when
 * it is one string for all levels).
 */
export class SideLevels {
  #levels: QuoteLevel[] | undefined;
  constructor(
    readonly expo: number | undefined,
    readonly nums: readonly number[],
    readonly texts: string | readonly string[],
    readonly literals: readonly (string | undefined)[] | undefined,
  ) {}

  get count(): number {
    return this.nums.length / 3;
  }

  text(level: number): string {
    return typeof this.texts === 'string' ? this.texts : (this.texts[level] as string);
  }

  /** The first level's price as x18, without building the levels. */
  bestX18(): bigint | undefined {
    if (this.nums.length === 0) return undefined;
    const tick = this.nums[0] as number;
    if (Number.isNaN(tick)) return parseDecimalToX18(this.literals?.[0] as string, 'quote price');
    // tick × 10^-expo, exactly (expo < 16 for a tick price).
    return BigInt(tick) * (X18_OF_EXPO[this.expo as number] as bigint);
  }

  /**
   * The levels as x18, flattened (price then quantity of each), exactly `parseDecimalToX18` of
   * what `levels()` gives: a tick price is its ticks times one tick in x18, with no string built
   * or parsed (beyond 2^40 ticks or on a grid finer than 10^-15, the string `levels()` holds is
   * parsed, so both paths always agree). Undefined when a level is not a plain decimal: the
   * caller reads `levels()` then, and reports it.
   */
  levelsX18(): bigint[] | undefined {
    const count = this.count;
    const expo = this.expo;
    const tickX18 = expo === undefined || expo > 15 ? undefined : X18_OF_EXPO[expo];
    const out = new Array<bigint>(2 * count);
    for (let i = 0; i < count; i++) {
      const tick = this.nums[3 * i] as number;
      let price: bigint | undefined;
      if (Number.isNaN(tick)) {
        const literal = this.literals?.[i] as string;
        price = plainDecimalX18(literal, 0, literal.length);
      } else if (tickX18 !== undefined && tick <= MAX_FAST_TICK) {
        price = BigInt(tick) * tickX18;
      } else {
        const text = formatTicks(tick, expo as number);
        price = plainDecimalX18(text, 0, text.length);
      }
      const quantity = plainDecimalX18(
        this.text(i),
        this.nums[3 * i + 1] as number,
        this.nums[3 * i + 2] as number,
      );
      if (price === undefined || quantity === undefined) return undefined;
      out[2 * i] = price;
      out[2 * i + 1] = quantity;
    }
    return out;
  }

  levels(): QuoteLevel[] {
    if (this.#levels === undefined) {
      const count = this.count;
      const levels = new Array<QuoteLevel>(count);
      for (let i = 0; i < count; i++) {
        const tick = this.nums[3 * i] as number;
        const price = Number.isNaN(tick)
          ? (this.literals?.[i] as string)
          : formatTicks(tick, this.expo as number);
        const quantity = this.text(i).slice(this.nums[3 * i + 1], this.nums[3 * i + 2]);
        levels[i] = { price, quantity };
      }
      this.#levels = levels;
    }
    return this.#levels;
  }
}

// Ticks up to here divide by their grid exactly in doubles (formatTicks), with room to spare.
const MAX_FAST_TICK = 2 ** 40;

/** 10^(18 − k) for k fraction digits (0 to 15), for `plainDecimalX18`. */
const FRACTION_SCALE: readonly bigint[] = Array.from(
  { length: 16 },
  (_, digits) => 10n ** BigInt(18 - digits),
);

/**
 * `parseDecimalToX18(text.slice(from, to))` without the slice, the regular expression and the
 * padded string, for a plain decimal of at most 15 digits (a number holds it exactly); longer
 * ones go through `parseDecimalToX18`. Undefined for anything that one rejects.
 */
function plainDecimalX18(text: string, from: number, to: number): bigint | undefined {
  let value = 0;
  let digits = 0;
  let fraction = -1;
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits += 1;
      if (fraction >= 0) fraction += 1;
    } else if (code === 46 && fraction < 0 && digits > 0) {
      fraction = 0;
    } else {
      return undefined;
    }
  }
  if (digits === 0 || fraction === 0) return undefined;
  if (digits > 15) {
    try {
      return parseDecimalToX18(text.slice(from, to));
    } catch {
      return undefined;
    }
  }
  return BigInt(value) * (FRACTION_SCALE[fraction < 0 ? 0 : fraction] as bigint);
}

/** A side without levels (`""`). */
export const NO_SIDE = new SideLevels(undefined, [], '', undefined);

/** 10^(18 − expo): one tick of a `10^-expo` grid in x18. */
export const X18_OF_EXPO: readonly bigint[] = Array.from(
  { length: 19 },
  (_, expo) => 10n ** BigInt(18 - expo),
);

/**
 * What is wrong with a side's delta string; `detail` continues the side's name in a message
 * (`: …` or `[level]: …`), which the caller prefixes with file, line and side.
 */
export class SideFormatError extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

const ODD_VALUES = ': expected price and quantity pairs, got an odd number of values';

/** `*`, which starts a shifted side (format version 4, see `encodeSideV2`). */
export const SHIFTED = 42;
/** `=`: a quantity as before (a version 2 level), or a shifted side's quantities, all as before. */
const UNCHANGED = 61;

/** Level `level`'s tick moved by `shift`; a literal price (NaN) or a negative result is an error. */
function shiftTick(tick: number, shift: number, level: number): number {
  const moved = tick + shift;
  if (!(moved >= 0) || !Number.isSafeInteger(moved))
    throw new SideFormatError(
      `[${level}]: shifted by ${shift} ticks from a literal price, or to a negative or unsafe one`,
    );
  return moved;
}

/**
 * The tick shift of a version 4 shifted side, `*<shift> <quantity block>`, once its form and the
 * side it shifts (`base`, which must have levels on the grid `expo`) are checked.
 */
function shiftOf(
  raw: string,
  base: SideLevels | undefined,
  expo: number | undefined,
): { shift: number; gap: number; base: SideLevels } {
  const gap = raw.indexOf(' ');
  const shift = gap === -1 ? Number.NaN : Number(raw.slice(1, gap));
  if (!Number.isSafeInteger(shift) || !/^-?(0|[1-9]\d*)$/.test(raw.slice(1, gap)))
    throw new SideFormatError(
      `: shifted side ${JSON.stringify(raw.slice(0, gap === -1 ? 16 : gap))}: expected "*" and an integer tick shift`,
    );
  if (base === undefined || expo === undefined || base.count === 0)
    throw new SideFormatError(': shifted side, but the market had no levels on this grid before');
  return { shift, gap, base };
}

/** True for a shifted side's block `=` (every quantity as before), `gap` being its space. */
function keepsQuantities(raw: string, gap: number): boolean {
  return raw.length === gap + 2 && raw.charCodeAt(gap + 1) === UNCHANGED;
}

function blockProblem(problem: string): SideFormatError {
  return new SideFormatError(problem.startsWith('[') ? problem : `: ${problem}`);
}

/**
 * A version 4 shifted side, `*<shift> <quantity block>`: the previous side's levels, each price
 * moved by `pending` (the shifts of sides passed over, see `passShiftedSide`) and then `shift`
 * ticks, with the block's quantities (`quantity-block.ts`), or with the previous quantities for a
 * block `=`.
 */
function applyShiftedSide(
  raw: string,
  previous: SideLevels | undefined,
  expo: number | undefined,
  pending: number,
): SideLevels {
  const { shift, gap, base } = shiftOf(raw, previous, expo);
  const count = base.count;
  if (keepsQuantities(raw, gap)) {
    const nums = new Array<number>(3 * count);
    for (let i = 0; i < 3 * count; i += 3) {
      nums[i] = shiftTick((base.nums[i] as number) + pending, shift, i / 3);
      nums[i + 1] = base.nums[i + 1] as number;
      nums[i + 2] = base.nums[i + 2] as number;
    }
    return new SideLevels(expo, nums, base.texts, undefined);
  }
  const quantities = decodeQuantityBlock(raw, gap + 1, count);
  if (typeof quantities === 'string') throw blockProblem(quantities);
  const nums = new Array<number>(3 * count);
  for (let i = 0; i < count; i++) {
    nums[3 * i] = shiftTick((base.nums[3 * i] as number) + pending, shift, i);
    nums[3 * i + 1] = 0;
    nums[3 * i + 2] = (quantities[i] as string).length;
  }
  return new SideLevels(expo, nums, quantities, undefined);
}

/**
 * Checks a shifted side that the next side of the track replaces with a block of its own, so
 * nothing reads its quantities or builds its levels, and returns its shift: what
 * `applySideDelta(raw, previous, expo, pending)` would check, in the same order and with the same
 * messages, without building its levels or quantities. The next side is applied with `pending`
 * plus this shift.
 *
 * @param pending - the shifts of the sides passed over since `previous`.
 * @throws SideFormatError as `applySideDelta` would for `raw`.
 */
export function passShiftedSide(
  raw: string,
  previous: SideLevels | undefined,
  expo: number | undefined,
  pending: number,
): number {
  const { shift, gap, base } = shiftOf(raw, sameGrid(previous, expo), expo);
  if (!keepsQuantities(raw, gap)) {
    const problem = quantityBlockProblem(raw, gap + 1, base.count);
    if (problem !== undefined) throw blockProblem(problem);
  }
  for (let i = 0; i < base.count; i++) shiftTick((base.nums[3 * i] as number) + pending, shift, i);
  return shift;
}

/** True when `raw` is a shifted side with a block of quantities (not `=`): it needs none before. */
export function replacesQuantities(raw: string | 0 | SideLevels | undefined): boolean {
  if (typeof raw !== 'string' || raw.charCodeAt(0) !== SHIFTED) return false;
  const gap = raw.indexOf(' ');
  return gap !== -1 && !keepsQuantities(raw, gap);
}

/** The previous side when it is on the grid `expo` (a delta builds on it), else undefined. */
function sameGrid(
  previous: SideLevels | undefined,
  expo: number | undefined,
): SideLevels | undefined {
  return previous !== undefined && previous.expo === expo ? previous : undefined;
}

/**
 * Applies one side's delta string (see `encodeSideV2` in encode-lines.ts) to the market's
 * previous side: offsets summed as they are read, quantities kept as spans of their string.
 *
 * @param previous - the same side of the market's previous quote in the file, if any.
 * @param expo - the market's `priceExpo` now (undefined when it is not listed).
 * @param pending - ticks the levels of `previous` still have to move: the shifts of the shifted
 *   sides passed over since it (`passShiftedSide`), which only a shifted side can follow.
 * @throws SideFormatError for a malformed string or a delta without what it refers to.
 */
export function applySideDelta(
  raw: string,
  previous: SideLevels | undefined,
  expo: number | undefined,
  pending = 0,
): SideLevels {
  const shifted = raw.charCodeAt(0) === SHIFTED;
  if (pending !== 0 && !shifted)
    throw new Error('internal: sides passed over must be followed by a shifted side');
  if (raw === '') return NO_SIDE;
  const base = sameGrid(previous, expo);
  if (shifted) return applyShiftedSide(raw, base, expo, pending);
  const nums: number[] = [];
  let literals: (string | undefined)[] | undefined;
  // One string for every quantity until one is taken from the previous side (`=`).
  let texts: string | string[] = raw;
  const length = raw.length;
  let at = 0;
  for (let i = 0; ; i++) {
    const start = at;
    let code = raw.charCodeAt(at);
    if (code === 64) {
      // `@` and a literal decimal.
      const gap = raw.indexOf(' ', at);
      if (gap === -1) throw new SideFormatError(ODD_VALUES);
      literals ??= [];
      literals[i] = raw.slice(at + 1, gap);
      nums.push(Number.NaN);
      at = gap;
    } else {
      let negative = false;
      if (code === 45) {
        negative = true;
        at += 1;
        code = raw.charCodeAt(at);
      }
      let value = 0;
      const digitsFrom = at;
      while (code >= 48 && code <= 57) {
        value = value * 10 + (code - 48);
        at += 1;
        code = raw.charCodeAt(at);
      }
      if (at >= length) throw new SideFormatError(ODD_VALUES);
      const previousTick = base === undefined || i >= base.count ? 0 : (base.nums[3 * i] as number);
      const tick = (negative ? -value : value) + (Number.isNaN(previousTick) ? 0 : previousTick);
      if (
        code !== 32 ||
        at === digitsFrom ||
        expo === undefined ||
        !Number.isSafeInteger(value) ||
        tick < 0
      ) {
        const end = raw.indexOf(' ', start);
        throw new SideFormatError(
          `[${i}]: price ${JSON.stringify(raw.slice(start, end === -1 ? length : end))} is not a tick offset of a listed market`,
        );
      }
      nums.push(tick);
    }
    // `at` is on the space before the quantity.
    const from = at + 1;
    let to = raw.indexOf(' ', from);
    if (to === -1) to = length;
    if (to - from === 1 && raw.charCodeAt(from) === UNCHANGED) {
      // `=`: the quantity of the previous quote at this index.
      if (previous === undefined || i >= previous.count)
        throw new SideFormatError(
          `[${i}]: quantity marked unchanged, but there was no level ${i} before`,
        );
      if (typeof texts === 'string') texts = new Array<string>(i).fill(raw);
      texts.push(previous.text(i));
      nums.push(previous.nums[3 * i + 1] as number, previous.nums[3 * i + 2] as number);
    } else {
      if (typeof texts !== 'string') texts.push(raw);
      nums.push(from, to);
    }
    if (to === length) break;
    at = to + 1;
  }
  return new SideLevels(expo, nums, texts, literals);
}
