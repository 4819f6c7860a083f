/**
 * Applying a side's delta string (see `encodeSideV2` in encode-lines.ts) to the market's previous
 * side: the result is numbers (`SideLevels`), no string made per level.
 */
import { decodeQuantityUnits, quantityBlockProblem } from './quantity-block.ts';
import { LITERAL, NO_SIDE, PER_LEVEL, SideLevels } from './side-levels.ts';
import { arenaChunk, reserveNumbers } from './level-arena.ts';

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
export const UNCHANGED = 61;

/** Level `level`'s tick moved by `shift`; a literal price (NaN) or a negative result is an error. */
function shiftTick(tick: number, shift: number, level: number): number {
  const moved = tick + shift;
  if (!(moved >= 0) || !Number.isSafeInteger(moved)) throw badShift(shift, level);
  return moved;
}

function badShift(shift: number, level: number): SideFormatError {
  return new SideFormatError(
    `[${level}]: shifted by ${shift} ticks from a literal price, or to a negative or unsafe one`,
  );
}

// The shift `shiftGap` read last (a number beside its result: an object per side read was
// most of what checking a shifted side cost).
let shiftRead = 0;

/**
 * Where the space of a version 4 shifted side, `*<shift> <quantity block>`, is once its form and
 * the side it shifts (`base`, which must have levels on the grid `expo`) are checked; the tick
 * shift is left in `shiftRead`.
 */
function shiftGap(raw: string, base: SideLevels | undefined, expo: number | undefined): number {
  // The shift's characters up to the first one that is not a digit (after an optional `-`):
  // when that one is the space, it is the first space and they are the whole shift.
  let at = raw.charCodeAt(1) === 45 ? 2 : 1;
  let code = raw.charCodeAt(at);
  while (code >= 48 && code <= 57) code = raw.charCodeAt(++at);
  const gap = code === 32 ? at : raw.indexOf(' ');
  const shift = gap === -1 ? Number.NaN : integerBetween(raw, 1, gap);
  if (Number.isNaN(shift))
    throw new SideFormatError(
      `: shifted side ${JSON.stringify(raw.slice(0, gap === -1 ? 16 : gap))}: expected "*" and an integer tick shift`,
    );
  if (base === undefined || expo === undefined || base.count === 0)
    throw new SideFormatError(': shifted side, but the market had no levels on this grid before');
  shiftRead = shift;
  return gap;
}

/**
 * The integer written from `from` to `to` (`-?(0|[1-9][0-9]*)`, a safe integer), or NaN for
 * anything else.
 */
function integerBetween(raw: string, from: number, to: number): number {
  const negative = raw.charCodeAt(from) === 45;
  const start = negative ? from + 1 : from;
  if (start >= to || to - start > 16) return Number.NaN;
  if (raw.charCodeAt(start) === 48 && to - start > 1) return Number.NaN;
  let value = 0;
  for (let at = start; at < to; at++) {
    const code = raw.charCodeAt(at);
    if (code < 48 || code > 57) return Number.NaN;
    value = value * 10 + (code - 48);
  }
  if (!Number.isSafeInteger(value)) return Number.NaN;
  return negative ? -value : value;
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
  const gap = shiftGap(raw, previous, expo);
  const shift = shiftRead;
  const base = previous as SideLevels;
  const count = base.count;
  const size = PER_LEVEL * count;
  const from = reserveNumbers(size);
  const nums = arenaChunk();
  // The base's numbers read straight from its chunk: this runs for every side a reader builds.
  const baseNums = base.nums;
  const baseFrom = base.from;
  const keeps = keepsQuantities(raw, gap);
  if (keeps) {
    for (let k = 1; k < size; k += PER_LEVEL) {
      nums[from + k] = baseNums[baseFrom + k] as number;
      nums[from + k + 1] = baseNums[baseFrom + k + 1] as number;
    }
  } else {
    const problem = decodeQuantityUnits(raw, gap + 1, count, nums, from);
    if (problem !== undefined) throw blockProblem(problem);
  }
  for (let k = 0; k < size; k += PER_LEVEL) {
    nums[from + k] = shiftTick((baseNums[baseFrom + k] as number) + pending, shift, k / PER_LEVEL);
  }
  return new SideLevels(expo, nums, from, count, undefined, keeps ? base.quantityTexts : undefined);
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
  const base = sameGrid(previous, expo) as SideLevels;
  const gap = shiftGap(raw, base, expo);
  const shift = shiftRead;
  if (!keepsQuantities(raw, gap)) {
    const problem = quantityBlockProblem(raw, gap + 1, base.count);
    if (problem !== undefined) throw blockProblem(problem);
  }
  for (let i = 0; i < base.count; i++) shiftTick(base.tick(i) + pending, shift, i);
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
 * previous side: offsets summed as they are read, quantities read as units where they give their
 * text back exactly (else kept as text).
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
  return new PairsReader(raw, previous, base, expo).read();
}

// Grown as needed and reused: a side's numbers are read here, then copied at their length.
let scratch = new Float64Array(PER_LEVEL * 64);

/** Reads a version 2 side, `price quantity …` pairs, into numbers. */
class PairsReader {
  #literals: (string | undefined)[] | undefined;
  #quantityTexts: (string | undefined)[] | undefined;
  #at = 0;

  constructor(
    readonly raw: string,
    readonly previous: SideLevels | undefined,
    readonly base: SideLevels | undefined,
    readonly expo: number | undefined,
  ) {}

  read(): SideLevels {
    const { raw } = this;
    const length = raw.length;
    let i = 0;
    for (; ; i++) {
      if (scratch.length < PER_LEVEL * (i + 1)) {
        const grown = new Float64Array(scratch.length * 2);
        grown.set(scratch);
        scratch = grown;
      }
      scratch[PER_LEVEL * i] = this.#price(i);
      // `#at` is on the space before the quantity.
      const from = this.#at + 1;
      let to = raw.indexOf(' ', from);
      if (to === -1) to = length;
      this.#quantity(i, from, to);
      if (to === length) break;
      this.#at = to + 1;
    }
    const size = PER_LEVEL * (i + 1);
    const from = reserveNumbers(size);
    const nums = arenaChunk();
    for (let k = 0; k < size; k++) nums[from + k] = scratch[k] as number;
    return new SideLevels(this.expo, nums, from, i + 1, this.#literals, this.#quantityTexts);
  }

  /** Level `i`'s price in ticks (NaN for a literal), `#at` left on the space after it. */
  #price(i: number): number {
    const { raw, base, expo } = this;
    const length = raw.length;
    let at = this.#at;
    const start = at;
    let code = raw.charCodeAt(at);
    if (code === 64) {
      // `@` and a literal decimal.
      const gap = raw.indexOf(' ', at);
      if (gap === -1) throw new SideFormatError(ODD_VALUES);
      (this.#literals ??= [])[i] = raw.slice(at + 1, gap);
      this.#at = gap;
      return Number.NaN;
    }
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
    const previousTick = base === undefined || i >= base.count ? 0 : base.tick(i);
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
    this.#at = at;
    return tick;
  }

  /** Level `i`'s quantity, the text from `from` to `to` (or `=`), into `scratch`. */
  #quantity(i: number, from: number, to: number): void {
    const { raw, previous } = this;
    const at = PER_LEVEL * i;
    if (to - from === 1 && raw.charCodeAt(from) === UNCHANGED) {
      // `=`: the quantity of the previous quote at this index.
      if (previous === undefined || i >= previous.count)
        throw new SideFormatError(
          `[${i}]: quantity marked unchanged, but there was no level ${i} before`,
        );
      scratch[at + 1] = previous.units(i);
      scratch[at + 2] = previous.scale(i);
      if (scratch[at + 2] === LITERAL) (this.#quantityTexts ??= [])[i] = previous.quantity(i);
      return;
    }
    const units = canonicalUnits(raw, from, to);
    scratch[at + 1] = units < 0 ? 0 : units;
    scratch[at + 2] = units < 0 ? LITERAL : unitsScale;
    if (units < 0) (this.#quantityTexts ??= [])[i] = raw.slice(from, to);
  }
}

// The scale of the units `canonicalUnits` returned last.
let unitsScale = 0;

/**
 * The text from `from` to `to` as integer units of `10^-unitsScale` when `formatTicks` gives that
 * text back (digits, at most 15, an optional point followed by digits not ending in 0, no leading
 * zero but a lone one before the point); -1 otherwise (it is kept as text).
 */
function canonicalUnits(raw: string, from: number, to: number): number {
  if (to - from > 16 || to === from) return -1;
  let value = 0;
  let point = -1;
  for (let at = from; at < to; at++) {
    const code = raw.charCodeAt(at);
    if (code >= 48 && code <= 57) value = value * 10 + (code - 48);
    else if (code === 46 && point < 0) point = at;
    else return -1;
  }
  const wholeEnd = point < 0 ? to : point;
  if (wholeEnd === from || (raw.charCodeAt(from) === 48 && wholeEnd - from > 1)) return -1;
  if (point >= 0 && (point === to - 1 || raw.charCodeAt(to - 1) === 48)) return -1;
  if (to - from - (point < 0 ? 0 : 1) > 15) return -1;
  unitsScale = point < 0 ? 0 : to - point - 1;
  return value;
}

/**
 * The first price offset of a delta string (`-12 …`, or a shifted side's `*-12 …`), or undefined
 * when it is not a plain integer followed by a space (a literal `@…`, or malformed: the full path
 * reports it). With `gapOut`, the index of that space (the delta's first space) goes to
 * `gapOut[0]`, so a reader of what follows it need not search for it again.
 */
export function firstOffset(raw: string, gapOut?: Int32Array): number | undefined {
  let at = raw.charCodeAt(0) === SHIFTED ? 1 : 0;
  let code = raw.charCodeAt(at);
  const negative = code === 45;
  if (negative) code = raw.charCodeAt(++at);
  const from = at;
  let value = 0;
  while (code >= 48 && code <= 57) {
    value = value * 10 + (code - 48);
    code = raw.charCodeAt(++at);
  }
  if (code !== 32 || at === from || at - from > 15) return undefined;
  if (gapOut !== undefined) gapOut[0] = at;
  return negative ? -value : value;
}
