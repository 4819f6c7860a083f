import { deriveSeed, SeededRandom } from '../sim/random.ts';

/**
 * The schedule's one random source, split into named streams (faults, strategy, venue) so a
 * decision added to one stream does not shift every other: all of them come from the seed.
 */
export class SimRandom {
  readonly #rng: SeededRandom;

  constructor(seed: number, stream: number) {
    this.#rng = new SeededRandom(deriveSeed(seed, stream));
  }

  /** True with probability `perMille` / 1000. */
  chance(perMille: number): boolean {
    return perMille > 0 && this.#rng.nextUint32() % 1000 < perMille;
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + (this.#rng.nextUint32() % (high - low + 1));
  }
}

/**
 * The streams of one schedule (`more`: the faults added after the first plan: clock, disk, damage;
 * `extra`: those added after them: one-way partitions, the restart's crash).
 */
export const STREAMS = { network: 1, plan: 2, venue: 3, keys: 4, more: 5, extra: 6 } as const;
