/**
 * Small exact helpers for strategy code: the arithmetic every strategy otherwise writes with
 * decimal.js. Inputs and outputs are decimal strings, as in snapshots and intents; nothing here
 * goes through a float.
 */
import { formatX18, parseDecimalToX18, parseSignedDecimalToX18 } from '../money/index.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import { bestLevel, levelNumbers as writeLevelNumbers } from '../market/book-view.ts';
import type { Quote, QuoteLevel } from '../domain/index.ts';
import { ErrorCodes, QuantaError } from '../errors/index.ts';

/**
 * A position as `ctx.position(marketId)` returns it (`"-0.5"` is short), as an exact signed x18
 * integer, for comparisons without floats.
 *
 * @example
 * positionX18('-0.5') // -500000000000000000n
 */
export function positionX18(position: string): bigint {
  // The host hands the same text while a position does not change (host-context.ts), and a
  // strategy reads each of its markets' every snapshot: the last few texts are kept parsed.
  for (let i = 0; i < keptPositions; i++) {
    if (keptPositionTexts[i] === position) return keptPositionValues[i] as bigint;
  }
  const x18 = parseSignedDecimalToX18(position, 'position');
  keptPositionTexts[nextKeptPosition] = position;
  keptPositionValues[nextKeptPosition] = x18;
  nextKeptPosition = (nextKeptPosition + 1) % KEPT_POSITIONS;
  keptPositions = Math.min(keptPositions + 1, KEPT_POSITIONS);
  return x18;
}

/** Position texts {@link positionX18} keeps parsed (a strategy's markets, most often a few). */
const KEPT_POSITIONS = 8;
const keptPositionTexts: string[] = new Array<string>(KEPT_POSITIONS).fill('');
const keptPositionValues: bigint[] = new Array<bigint>(KEPT_POSITIONS).fill(0n);
/** How many slots hold a parsed text; the next one written. */
let keptPositions = 0;
let nextKeptPosition = 0;

/** True for a long position (`"0.01"`). @example isLong(ctx.position(id)) */
export function isLong(position: string): boolean {
  return positionX18(position) > 0n;
}

/** True for a short position (`"-0.01"`). @example isShort(ctx.position(id)) */
export function isShort(position: string): boolean {
  return positionX18(position) < 0n;
}

/** True when there is no position (`"0"`). @example if (isFlat(ctx.position(id))) { ... } */
export function isFlat(position: string): boolean {
  return positionX18(position) === 0n;
}

/**
 * The absolute size of a position as a decimal string, e.g. to close it with a reduce-only
 * order of that amount.
 *
 * @example
 * absAmount('-0.25') // '0.25'
 */
export function absAmount(position: string): string {
  return position.startsWith('-') ? position.slice(1) : position;
}

/**
 * The mid of the best bid and ask (the framework's one mark-price rule, so a strategy sees the
 * price its positions are valued at), or undefined when either side is empty.
 *
 * @example
 * mid(snapshot.quotes?.get(id)) // '100.5' for bid 100, ask 101
 */
export function mid(quote: Quote | undefined): string | undefined {
  const mark = markPriceX18(quote);
  return mark === undefined ? undefined : formatX18(mark);
}

/**
 * Best ask minus best bid (a decimal string), or undefined when either side is empty.
 *
 * @example
 * spread(quote) // '1' for bid 100, ask 101
 */
export function spread(quote: Quote | undefined): string | undefined {
  const bid = bestLevel(quote, 'bids');
  const ask = bestLevel(quote, 'asks');
  if (bid === undefined || ask === undefined) return undefined;
  const difference = parseDecimalToX18(ask.price) - parseDecimalToX18(bid.price);
  return difference < 0n ? `-${formatX18(-difference)}` : formatX18(difference);
}

/**
 * The best bid of a quote: its first bid level, the same decimal strings as `quote.bids[0]`, or
 * undefined when there is none. On a recorded quote (a backtest) it is made alone, where
 * `quote.bids` makes every level of the side first: read the top of many books with this.
 *
 * @example
 * bestBid(snapshot.quotes?.get(id))?.price // '100'
 */
export function bestBid(quote: Quote | undefined): QuoteLevel | undefined {
  return bestLevel(quote, 'bids');
}

/**
 * The best ask of a quote (its first ask level, as `quote.asks[0]`), made alone like
 * {@link bestBid}; undefined when there is none.
 *
 * @example
 * bestAsk(snapshot.quotes?.get(id))?.quantity // '2.5'
 */
export function bestAsk(quote: Quote | undefined): QuoteLevel | undefined {
  return bestLevel(quote, 'asks');
}

/**
 * A side of a quote as numbers, for indicators (book imbalance, depth-weighted prices…): writes
 * price then quantity of each level, best first, into `into` (as many levels as fit) and returns
 * how many levels it wrote. Nothing is allocated, and on a recorded quote no string is made.
 *
 * The numbers are signals, not money: a double rounds (`0.1 + 0.2`), so never compute an order's
 * price or amount from them. Go back to the exact strings (`quote.bids`, {@link bestBid}) or
 * through `toOrderPrice` for anything that reaches an order.
 *
 * @example
 * const book = new Float64Array(20); // up to 10 levels
 * const levels = levelNumbers(quote, 'bids', book);
 * let depth = 0;
 * for (let i = 0; i < levels; i++) depth += book[2 * i + 1]; // bid quantity, as a number
 */
export function levelNumbers(
  quote: Quote | undefined,
  side: 'bids' | 'asks',
  into: Float64Array,
): number {
  return writeLevelNumbers(quote, side, into);
}

/**
 * The mid of the best bid and ask as an x18 bigint (the mark-price rule of {@link mid}), or
 * undefined when either side is empty.
 *
 * @example
 * midX18(quote) // 100500000000000000000n for bid 100, ask 101
 */
export function midX18(quote: Quote | undefined): bigint | undefined {
  return markPriceX18(quote);
}

const X18 = 10n ** 18n;
const SIGNED_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/**
 * A number (a param such as `entryZ: 1.5`, taken as its shortest decimal form, as decimal.js
 * takes it) or a decimal string as an exact signed x18 integer.
 *
 * @throws QuantaError `QUANTA_INVALID_DECIMAL` for a value that is not finite, not a decimal, or
 *   finer than 18 fraction digits.
 * @example
 * toX18(1.5) // 1500000000000000000n
 * toX18('-0.25') // -250000000000000000n
 */
export function toX18(value: number | string): bigint {
  const text = typeof value === 'number' ? String(value) : value;
  const match = SIGNED_DECIMAL.exec(text);
  if (match === null) {
    throw new QuantaError(ErrorCodes.INVALID_DECIMAL, `${JSON.stringify(text)} is not a decimal`);
  }
  // The exponent only moves the point; the one signed parser (money/) reads the digits and
  // refuses a 19th fraction digit.
  return parseSignedDecimalToX18(
    plainDecimal(match[1] ?? '', match[2] ?? '0', match[3] ?? '', Number(match[4] ?? '0')),
    `${JSON.stringify(text)} read as`,
  );
}

/** `-1.25e-3` as `-0.00125`: the same digits with the point moved, trailing fraction zeros dropped. */
function plainDecimal(sign: string, whole: string, fraction: string, exponent: number): string {
  const digits = `${whole}${fraction}`;
  const point = whole.length + exponent;
  const text =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? `${digits}${'0'.repeat(point - digits.length)}`
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}${text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text}`;
}

// 10^0 to 10^100, `fixedX18`'s scales: a strategy plotting a mean calls it every snapshot.
const POWERS_OF_TEN: readonly bigint[] = Array.from({ length: 101 }, (_, i) => 10n ** BigInt(i));

/**
 * `valueX18 / divisor` rounded half away from zero to `decimals` places, with exactly that many
 * (decimal.js's `toFixed(decimals)`, except that a value rounding to zero has no `-`), computed
 * exactly: e.g. a mean as `fixedX18(sum, 8, n)`.
 *
 * @example
 * fixedX18(10n ** 18n, 2, 3n) // '0.33'
 * fixedX18(2500000000000000000n, 0) // '3'
 */
export function fixedX18(valueX18: bigint, decimals: number, divisor = 1n): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0 || decimals > 100) {
    throw new QuantaError(ErrorCodes.INVALID_DECIMAL, `decimals ${decimals}: expected 0 to 100`);
  }
  if (divisor === 0n) throw new QuantaError(ErrorCodes.INVALID_DECIMAL, 'division by zero');
  const negative = valueX18 < 0n !== divisor < 0n;
  const numerator = (valueX18 < 0n ? -valueX18 : valueX18) * (POWERS_OF_TEN[decimals] as bigint);
  const denominator = (divisor < 0n ? -divisor : divisor) * X18;
  const rounded = (2n * numerator + denominator) / (2n * denominator);
  const digits = rounded.toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative && rounded !== 0n ? `-${text}` : text;
}

/**
 * An exact rolling window of x18 values (the last `size` pushed) with its sum and the z-score
 * test mean-reversion strategies need, in bigints: no float, no decimal.js, no square root. The
 * variance is the population one (divided by the count).
 *
 * @example
 * const window = new RollingWindow(20);
 * window.push(midX18(quote)!);
 * if (window.full && window.compareZ(midX18(quote)!, toX18(2)) > 0) { ... } // z-score above 2
 */
export class RollingWindow {
  readonly size: number;
  readonly #values: bigint[] = [];
  #head = 0;
  #sum = 0n;
  #sumOfSquares = 0n;
  // count² × variance and count as a bigint, computed once per push: a strategy asks `flat` and
  // several `compareZ` of the same window per snapshot.
  #variance: bigint | undefined;
  #countX = 0n;
  // `compareZ`'s left side kept until the next push: a strategy compares one value (its latest
  // mid) with several thresholds (±entry, ±exit), and each is a product of long bigints.
  /** The value last compared, its (n·x − Σx)·10^18 and that squared (once needed). */
  #compared: bigint | undefined;
  #left = 0n;
  #leftSquared: bigint | undefined;

  constructor(size: number) {
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new QuantaError(ErrorCodes.INVALID_DECIMAL, `window size ${size}: expected 1 or more`);
    }
    this.size = size;
  }

  /** Adds a value, dropping the oldest once `size` are held. */
  push(valueX18: bigint): void {
    if (this.#values.length < this.size) this.#values.push(valueX18);
    else {
      const dropped = this.#values[this.#head] as bigint;
      this.#sum -= dropped;
      this.#sumOfSquares -= dropped * dropped;
      this.#values[this.#head] = valueX18;
      this.#head = (this.#head + 1) % this.size;
    }
    this.#sum += valueX18;
    this.#sumOfSquares += valueX18 * valueX18;
    this.#variance = undefined;
    this.#compared = undefined;
  }

  /** How many values are held (at most `size`). */
  get count(): number {
    return this.#values.length;
  }

  /** True once `size` values are held. */
  get full(): boolean {
    return this.#values.length === this.size;
  }

  /** The sum of the values held, x18: the mean is `fixedX18(window.sumX18, dp, BigInt(window.count))`. */
  get sumX18(): bigint {
    return this.#sum;
  }

  /** True when every value held is the same (the variance is zero: no z-score). */
  get flat(): boolean {
    return this.#varianceTimesCountSquared() === 0n;
  }

  /** count² × variance, in x36 units: count × Σx² − (Σx)². */
  #varianceTimesCountSquared(): bigint {
    if (this.#variance === undefined) {
      this.#countX = BigInt(this.#values.length);
      this.#variance = this.#countX * this.#sumOfSquares - this.#sum * this.#sum;
    }
    return this.#variance;
  }

  /**
   * The sign of `z − threshold`, where z is the z-score of `valueX18` against the values held
   * ((value − mean) / standard deviation), computed exactly: -1 below, 0 equal, 1 above.
   *
   * @param thresholdX18 - the threshold in x18, any sign (`toX18(entryZ)`, once).
   * @throws QuantaError when the window is empty or `flat` (z is undefined).
   */
  compareZ(valueX18: bigint, thresholdX18: bigint): -1 | 0 | 1 {
    const variance = this.#varianceTimesCountSquared();
    if (variance === 0n) {
      throw new QuantaError(ErrorCodes.INVALID_DECIMAL, 'z-score of a flat or empty window');
    }
    // z = (n·x − Σx) / √(n·Σx² − (Σx)²); compare n·x − Σx with t·√(…) by signs, then squares.
    if (this.#compared !== valueX18) {
      // Remembered only once computed: a value that throws here (a number, from untyped code)
      // must throw again, not match and reuse the previous value's left side.
      this.#left = (this.#countX * valueX18 - this.#sum) * X18;
      this.#leftSquared = undefined;
      this.#compared = valueX18;
    }
    const left = this.#left;
    const t = thresholdX18;
    if (left >= 0n && t <= 0n) return left === 0n && t === 0n ? 0 : 1;
    if (left <= 0n && t >= 0n) return -1;
    const l = (this.#leftSquared ??= left * left);
    const r = t * t * variance;
    const order = l > r ? 1 : l < r ? -1 : 0;
    return left > 0n ? order : order === 0 ? 0 : order === 1 ? -1 : 1;
  }
}
