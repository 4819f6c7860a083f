/** Slots of {@link RecentValues} (a power of two). */
const RECENT_BITS = 12;
// A value's double, read as two words to hash it.
const HASH_IN = new Float64Array(1);
const HASH_WORDS = new Int32Array(HASH_IN.buffer);

/**
 * One copy of each bigint among the recent ones: a table of `2^RECENT_BITS` slots indexed by a
 * hash of the value's double, a new value taking its slot. A Map of bigint keys (hashed, and
 * emptied and grown again every 4096 values to stay bounded) cost far more: the tops of every
 * charted market, read for each kept sample, were a tenth of a backtest reading best bids and
 * asks through one; a moving book's tops and marks, and a run's fill prices, repeat within a few
 * snapshots, which this keeps as well. Equal values, so nothing read from them changes.
 */
export class RecentValues {
  readonly #slots = new Array<bigint>(1 << RECENT_BITS).fill(-1n);

  /** The copy of `value` kept in its slot when equal, else `value` (which takes the slot). */
  one(value: bigint): bigint {
    HASH_IN[0] = Number(value);
    const hash = Math.imul((HASH_WORDS[0] as number) ^ (HASH_WORDS[1] as number), 0x9e3779b1);
    const slot = hash >>> (32 - RECENT_BITS);
    const known = this.#slots[slot] as bigint;
    if (known === value) return known;
    this.#slots[slot] = value;
    return value;
  }
}
