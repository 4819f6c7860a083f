/**
 * The account's equity at each snapshot where it changed, held as the exact differences between
 * consecutive values: each chunk of 4,096 is kept, once full, in the narrowest integer array its
 * differences fit once divided by the largest power of ten dividing them all (1 byte a change when
 * a position of a fixed size moves by a few ticks), else in 64 bits (a difference beyond 64 bits
 * keeps a bigint of its own). A `[previous, value]` pair of bigints per change was about 110
 * bytes and, at one change every other snapshot, most of a million-snapshot backtest's heap
 * (test/bench/backtest-heap.bench.ts). Each change's previous value is the last change's value
 * (the start before the first): equity that did not change adds nothing in between.
 */

/** Differences per chunk. */
const CHUNK = 4096;
/** A difference that did not fit in 64 bits: the next of `#wide` is it. */
const WIDE = -(2n ** 63n);

type Narrow = Int8Array | Int16Array | Int32Array;

/** A full chunk: its differences are `values[i] × 10^exponent` (`exponent` 0 for 64 bits). */
interface Chunk {
  readonly values: Narrow | BigInt64Array;
  readonly unit: bigint;
}

export class EquityChanges implements Iterable<readonly [previous: bigint, value: bigint]> {
  readonly #start: bigint;
  readonly #full: Chunk[] = [];
  // The chunk being filled, in 64 bits until it is full.
  #open = new BigInt64Array(CHUNK);
  readonly #wide: bigint[] = [];
  #last: bigint;
  #count = 0;

  /** @param startX18 - the equity before the first change. */
  constructor(startX18: bigint) {
    this.#start = startX18;
    this.#last = startX18;
  }

  /** How many changes were added. */
  get length(): number {
    return this.#count;
  }

  /** Adds the equity after the next change (it differs from the last one). */
  push(valueX18: bigint): void {
    const difference = valueX18 - this.#last;
    const index = this.#count % CHUNK;
    if (BigInt.asIntN(64, difference) === difference && difference !== WIDE) {
      this.#open[index] = difference;
    } else {
      this.#open[index] = WIDE;
      this.#wide.push(difference);
    }
    this.#last = valueX18;
    this.#count += 1;
    if (index === CHUNK - 1) {
      this.#full.push(narrowed(this.#open));
      this.#open = new BigInt64Array(CHUNK);
    }
  }

  /** Each change as the equity before it and after it, in order. */
  *[Symbol.iterator](): Generator<readonly [previous: bigint, value: bigint]> {
    let previous = this.#start;
    let wide = 0;
    for (let i = 0; i < this.#count; i++) {
      const chunk = this.#full[Math.floor(i / CHUNK)];
      let difference: bigint;
      if (chunk === undefined || chunk.values instanceof BigInt64Array) {
        const stored = (chunk?.values ?? this.#open)[i % CHUNK] as bigint;
        difference = stored === WIDE ? (this.#wide[wide++] as bigint) : stored;
      } else {
        difference = BigInt(chunk.values[i % CHUNK] as number) * chunk.unit;
      }
      const value = previous + difference;
      yield [previous, value];
      previous = value;
    }
  }
}

const POWERS_OF_TEN = Array.from({ length: 19 }, (_, i) => 10n ** BigInt(i));

/** A full chunk in the narrowest array that holds it exactly (see the module's comment). */
function narrowed(open: BigInt64Array): Chunk {
  let exponent = 18;
  let largest = 0n;
  for (const difference of open) {
    if (difference === WIDE) return { values: open, unit: 1n };
    while (exponent > 0 && difference % (POWERS_OF_TEN[exponent] as bigint) !== 0n) exponent -= 1;
    const size = difference < 0n ? -difference : difference;
    if (size > largest) largest = size;
  }
  const unit = POWERS_OF_TEN[exponent] as bigint;
  const scaled = largest / unit;
  const make =
    scaled < 128n
      ? (n: number) => new Int8Array(n)
      : scaled < 32768n
        ? (n: number) => new Int16Array(n)
        : scaled < 2147483648n
          ? (n: number) => new Int32Array(n)
          : undefined;
  if (make === undefined) return { values: open, unit: 1n };
  const values = make(CHUNK);
  for (let i = 0; i < CHUNK; i++) values[i] = Number((open[i] as bigint) / unit);
  return { values, unit };
}
