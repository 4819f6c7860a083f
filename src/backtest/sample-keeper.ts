import { MAX_SERIES_POINTS } from './downsample.ts';
import type { PlotPoint, Sample } from './trace.ts';

/** A sample kept, with its place in the run and its plot points. */
interface Entry<S> {
  readonly index: number;
  readonly sample: S;
  readonly plots: readonly PlotPoint[];
}

/**
 * One stretch of samples: its lowest and highest equity and its deepest drawdown, each with the
 * value that placed it there (the entries themselves hold no bigint: a sample pinned at a fill,
 * and a long run has one per fill, keeps only what the report draws).
 */
interface Bucket<S> {
  low: Entry<S>;
  lowX18: bigint;
  high: Entry<S>;
  highX18: bigint;
  deep: Entry<S>;
  deepX18: bigint;
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
 * stretch builds none. What `make` gives is kept as it is: a `Sample`, or (`S`) what its caller
 * makes one of once the run is over and only the kept ones are left.
 */
export class SampleKeeper<S = Sample> {
  readonly #maxBuckets: number;
  readonly #buckets: Bucket<S>[] = [];
  // The pinned samples (one per fill in a long run) in three flat lists, not an Entry each.
  readonly #pinnedIndex: number[] = [];
  readonly #pinnedSample: S[] = [];
  readonly #pinnedPlots: (readonly PlotPoint[])[] = [];
  #width = 1;
  // The last sample offered: its entry when one was made, else its place and how to make it.
  #last: Entry<S> | undefined;
  #lastIndex = 0;
  #lastMake: (() => { sample: S; plots: readonly PlotPoint[] }) | undefined;
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
    make: () => { sample: S; plots: readonly PlotPoint[] },
  ): void {
    const index = this.#count++;
    let made: { sample: S; plots: readonly PlotPoint[] } | undefined;
    if (pin) {
      made = make();
      this.#pinnedIndex.push(index);
      this.#pinnedSample.push(made.sample);
      this.#pinnedPlots.push(made.plots);
    }
    let slot = Math.floor(index / this.#width);
    if (slot >= this.#maxBuckets) {
      this.#merge();
      slot = Math.floor(index / this.#width);
    }
    const bucket = this.#buckets[slot];
    // Decided before anything is built: most offers change no stretch, and a closure made per
    // offer to build the entry on demand was a tenth of what the keeper cost.
    const lower = bucket !== undefined && equityX18 < bucket.lowX18;
    const higher = bucket !== undefined && equityX18 > bucket.highX18;
    const deeper = bucket !== undefined && drawdownX18 > bucket.deepX18;
    if (bucket !== undefined && !lower && !higher && !deeper) {
      // The last sample is always drawn: built when the keeper is read, unless made already.
      this.#last =
        made === undefined ? undefined : { index, sample: made.sample, plots: made.plots };
      this.#lastIndex = index;
      this.#lastMake = make;
      return;
    }
    made ??= make();
    const entry: Entry<S> = { index, sample: made.sample, plots: made.plots };
    if (bucket === undefined) {
      this.#buckets.push({
        low: entry,
        lowX18: equityX18,
        high: entry,
        highX18: equityX18,
        deep: entry,
        deepX18: drawdownX18,
      });
    } else {
      if (lower) {
        bucket.low = entry;
        bucket.lowX18 = equityX18;
      }
      if (higher) {
        bucket.high = entry;
        bucket.highX18 = equityX18;
      }
      if (deeper) {
        bucket.deep = entry;
        bucket.deepX18 = drawdownX18;
      }
    }
    this.#last = entry;
    this.#lastMake = undefined;
  }

  #merge(): void {
    const merged: Bucket<S>[] = [];
    for (let i = 0; i < this.#buckets.length; i += 2) {
      const a = this.#buckets[i] as Bucket<S>;
      const b = this.#buckets[i + 1];
      if (b === undefined) {
        merged.push(a);
        continue;
      }
      const low = b.lowX18 < a.lowX18 ? b : a;
      const high = b.highX18 > a.highX18 ? b : a;
      const deep = b.deepX18 > a.deepX18 ? b : a;
      merged.push({
        low: low.low,
        lowX18: low.lowX18,
        high: high.high,
        highX18: high.highX18,
        deep: deep.deep,
        deepX18: deep.deepX18,
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
  result(): { samples: S[]; plots: PlotPoint[] } {
    // Each list is in index order already (pinned as offered, buckets over consecutive
    // stretches, the last offer last): merged, one entry per index. A pinned sample and a
    // bucket's entry of the same index hold the same sample and plots (made once).
    const kept: Entry<S>[] = [];
    for (const bucket of this.#buckets) keepInOrder(kept, bucket.low, bucket.high, bucket.deep);
    let last = this.#last;
    if (last === undefined && this.#lastMake !== undefined) {
      const made = this.#lastMake();
      last = { index: this.#lastIndex, sample: made.sample, plots: made.plots };
    }
    const samples: S[] = [];
    const plots: PlotPoint[] = [];
    let previous = -1;
    const take = (index: number, sample: S, drawn: readonly PlotPoint[]): void => {
      if (index === previous) return;
      previous = index;
      samples.push(sample);
      for (const point of drawn) plots.push(point);
    };
    const pinned = this.#pinnedIndex;
    let p = 0;
    for (const entry of kept) {
      for (; p < pinned.length && (pinned[p] as number) <= entry.index; p++)
        take(
          pinned[p] as number,
          this.#pinnedSample[p] as S,
          this.#pinnedPlots[p] as readonly PlotPoint[],
        );
      take(entry.index, entry.sample, entry.plots);
    }
    for (; p < pinned.length; p++)
      take(
        pinned[p] as number,
        this.#pinnedSample[p] as S,
        this.#pinnedPlots[p] as readonly PlotPoint[],
      );
    if (last !== undefined) take(last.index, last.sample, last.plots);
    return { samples, plots };
  }
}

/** Appends a bucket's entries to `kept` by index, each index once (they may be one entry). */
function keepInOrder<S>(kept: Entry<S>[], a: Entry<S>, b: Entry<S>, c: Entry<S>): void {
  const [x, y, z] = sorted3(a, b, c);
  kept.push(x);
  if (y.index !== x.index) kept.push(y);
  if (z.index !== y.index) kept.push(z);
}

function sorted3<S>(a: Entry<S>, b: Entry<S>, c: Entry<S>): [Entry<S>, Entry<S>, Entry<S>] {
  if (a.index > b.index) [a, b] = [b, a];
  if (b.index > c.index) [b, c] = [c, b];
  if (a.index > b.index) [a, b] = [b, a];
  return [a, b, c];
}
