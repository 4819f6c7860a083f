/**
 * Seeded, deterministic randomness for the simulation. Only integer operations are used (no
 * `Math.random`, no transcendental functions) so a seed gives the same stream on every platform.
 */

const UINT32 = 2 ** 32;
const IRWIN_HALL_TERMS = 12;

// murmur3's finaliser: spreads every input bit over the output so nearby seeds diverge.
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Derives an independent 32-bit seed for one stream (e.g. one market) from the engine seed, so
 * adding a market never changes another market's path.
 *
 * @param seed - a non-negative safe integer.
 * @param stream - the stream's number, e.g. a market id.
 */
export function deriveSeed(seed: number, stream: number): number {
  const low = seed >>> 0;
  const high = Math.floor(seed / UINT32) >>> 0;
  return fmix32(fmix32(low ^ fmix32(high + 0x9e3779b9)) ^ fmix32(stream + 0x7f4a7c15));
}

/**
 * mulberry32: a small 32-bit PRNG, good enough for price noise and fully reproducible.
 *
 * @example
 * const rng = new SeededRandom(42);
 * rng.nextUint32(); // the same number on every run
 */
export class SeededRandom {
  #state: number;

  /** @param seed - any number; only its low 32 bits matter. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The next integer in [0, 2^32). */
  nextUint32(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.#state ^ (this.#state >>> 15), 1 | this.#state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  }

  /**
   * An approximately standard-normal deviate scaled by 2^32, as an exact integer: the
   * Irwin–Hall sum of 12 uniforms minus 6 (mean 0, variance 1, tails cut at ±6). Every term is
   * below 2^53, so the sum is exact in a double.
   */
  nextNormalScaled(): bigint {
    let sum = 0;
    for (let i = 0; i < IRWIN_HALL_TERMS; i += 1) sum += this.nextUint32();
    return BigInt(sum - (IRWIN_HALL_TERMS / 2) * UINT32);
  }
}
