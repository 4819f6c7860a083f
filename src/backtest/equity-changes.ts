/**
 * The account's equity at each snapshot where it changed, held as the exact differences between
 * consecutive values in 64-bit chunks: 8 bytes a change (a difference beyond 64 bits keeps a
 * bigint of its own), where a `[previous, value]` pair of bigints per change was about 110 bytes
 * and, at one change every other snapshot, most of a million-snapshot backtest's heap
 * (test/bench/backtest-heap.bench.ts). Each change's previous value is the last change's value
 * (the start before the first): equity that did not change adds nothing in between.
 */

/** Differences per chunk (32 KiB). */
const CHUNK = 4096;
/** A difference that did not fit: the next of `#wide` is it. */
const WIDE = -(2n ** 63n);

export class EquityChanges implements Iterable<readonly [previous: bigint, value: bigint]> {
  readonly #start: bigint;
  readonly #chunks: BigInt64Array[] = [];
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
    if (index === 0) this.#chunks.push(new BigInt64Array(CHUNK));
    const chunk = this.#chunks[this.#chunks.length - 1] as BigInt64Array;
    if (BigInt.asIntN(64, difference) === difference && difference !== WIDE) {
      chunk[index] = difference;
    } else {
      chunk[index] = WIDE;
      this.#wide.push(difference);
    }
    this.#last = valueX18;
    this.#count += 1;
  }

  /** Each change as the equity before it and after it, in order. */
  *[Symbol.iterator](): Generator<readonly [previous: bigint, value: bigint]> {
    let previous = this.#start;
    let wide = 0;
    for (let i = 0; i < this.#count; i++) {
      const stored = (this.#chunks[Math.floor(i / CHUNK)] as BigInt64Array)[i % CHUNK] as bigint;
      const value = previous + (stored === WIDE ? (this.#wide[wide++] as bigint) : stored);
      yield [previous, value];
      previous = value;
    }
  }
}
