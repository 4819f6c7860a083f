import { MAX_SERIES_POINTS } from './downsample.ts';
import type { PlotPoint, Sample } from './trace.ts';

/** A sample offered to the keeper, with what decides whether it is kept. */
interface Entry {
  readonly index: number;
  readonly sample: Sample;
  readonly equityX18: bigint;
  readonly drawdownX18: bigint;
  readonly plots: readonly PlotPoint[];
}

/** One stretch of samples: its lowest and highest equity and its deepest drawdown. */
interface Bucket {
  low: Entry;
  high: Entry;
  deep: Entry;
}

/**
 * Keeps a bounded, shape-keeping selection of a run's samples for the charts, one sample at a
 * time: all of them up to `maxBuckets`, then, in stretches of 2, 4, 8… samples (adjacent
 * stretches merged pairwise whenever there would be more than `maxBuckets`), each stretch's
 * lowest and highest equity and deepest drawdown (ties: the earliest), plus the last sample and
 * every sample pinned (the first, those with a fill, the first with each market's mid). So at most
 * `3 × maxBuckets + 1` samples plus the pinned ones are held, whatever the run's length; the
 * report downsamples these further to its chart size. A sample's plot points stay or go with it.
 *
 * The sample itself is built only when it may be kept (`make` is called then), so a long flat
 * stretch builds none.
 */
export class SampleKeeper {
  readonly #maxBuckets: number;
  readonly #buckets: Bucket[] = [];
  readonly #pinned: Entry[] = [];
  #width = 1;
  #last: Entry | (() => Entry) | undefined;
  #count = 0;

  constructor(maxBuckets = MAX_SERIES_POINTS) {
    if (!Number.isInteger(maxBuckets) || maxBuckets < 2)
      throw new Error(`SampleKeeper: maxBuckets must be an integer ≥ 2, got ${maxBuckets}`);
    this.#maxBuckets = maxBuckets;
  }

  /** Samples offered so far. */
  get count(): number {
    return this.#count;
  }

  /**
   * Offers the next sample.
   *
   * @param pin - keep it whatever its stretch holds.
   * @param make - builds the sample and its plot points (called at most once, only if kept).
   */
  offer(
    equityX18: bigint,
    drawdownX18: bigint,
    pin: boolean,
    make: () => { sample: Sample; plots: readonly PlotPoint[] },
  ): void {
    const index = this.#count++;
    let entry: Entry | undefined;
    const built = (): Entry => {
      if (entry === undefined) {
        const { sample, plots } = make();
        entry = { index, sample, equityX18, drawdownX18, plots };
      }
      return entry;
    };
    if (pin) this.#pinned.push(built());
    let slot = Math.floor(index / this.#width);
    if (slot >= this.#maxBuckets) {
      this.#merge();
      slot = Math.floor(index / this.#width);
    }
    const bucket = this.#buckets[slot];
    if (bucket === undefined) {
      const first = built();
      this.#buckets.push({ low: first, high: first, deep: first });
    } else {
      if (equityX18 < bucket.low.equityX18) bucket.low = built();
      if (equityX18 > bucket.high.equityX18) bucket.high = built();
      if (drawdownX18 > bucket.deep.drawdownX18) bucket.deep = built();
    }
    // The last sample is always drawn: kept as it is, or built when the keeper is read.
    this.#last = entry ?? built;
  }

  #merge(): void {
    const merged: Bucket[] = [];
    for (let i = 0; i < this.#buckets.length; i += 2) {
      const a = this.#buckets[i] as Bucket;
      const b = this.#buckets[i + 1];
      if (b === undefined) {
        merged.push(a);
        continue;
      }
      merged.push({
        low: b.low.equityX18 < a.low.equityX18 ? b.low : a.low,
        high: b.high.equityX18 > a.high.equityX18 ? b.high : a.high,
        deep: b.deep.drawdownX18 > a.deep.drawdownX18 ? b.deep : a.deep,
      });
    }
    this.#buckets.length = 0;
    this.#buckets.push(...merged);
    this.#width *= 2;
  }

  /**
   * The samples kept, in order, and their plot points in the order drawn. Read it right after the
   * last offer: the last sample may be built now, from the state its `make` reads.
   */
  result(): { samples: Sample[]; plots: PlotPoint[] } {
    const byIndex = new Map<number, Entry>();
    for (const entry of this.#pinned) byIndex.set(entry.index, entry);
    for (const bucket of this.#buckets)
      for (const entry of [bucket.low, bucket.high, bucket.deep]) byIndex.set(entry.index, entry);
    const last = typeof this.#last === 'function' ? this.#last() : this.#last;
    if (last !== undefined) byIndex.set(last.index, last);
    const entries = [...byIndex.values()].sort((a, b) => a.index - b.index);
    return {
      samples: entries.map((e) => e.sample),
      plots: entries.flatMap((e) => e.plots),
    };
  }
}
