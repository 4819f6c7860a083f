import type { PositionBook } from '../execution/positions.ts';
import { markPriceX18 } from '../market/mark-price.ts';
import type { Snapshot } from '../market/snapshot.ts';
import type { Market } from '../domain/index.ts';
import { ReturnsAccumulator, ScopeAccumulator, type MeasuredRun } from './online-metrics.ts';
import { SampleKeeper } from './sample-keeper.ts';
import { SharedValues } from './shared-values.ts';
import { keepTops, withTops, type KeptTops } from './kept-tops.ts';
import type { FillEvent, MarketSample, PlotPoint, Sample, StrategySample } from './trace.ts';

/** Where the positions measured after a snapshot are read: the executor's books. */
export interface PositionSource {
  readonly positions: PositionBook;
  strategyPositions(strategy: string): PositionBook;
}

/** What {@link RunMeasurements} measured over a whole run, for the trace. */
export interface RunMeasured {
  /** Median spacing of the snapshots (ms). */
  readonly snapshotIntervalMs: number;
  /** The kept samples and their plot points (`SampleKeeper`). */
  readonly samples: readonly Sample[];
  readonly plots: readonly PlotPoint[];
  readonly measured: MeasuredRun;
  readonly timeline: { readonly t: number[]; readonly seq: number[] } | undefined;
  /** Each market's mark at the end (`finalMarksOf`). */
  readonly finalMarks: Map<number, bigint>;
}

/**
 * What a backtest measures after every snapshot, in memory that grows with the markets, not the
 * snapshots: the snapshot spacing, the account's and each instance's PnL accumulators, the
 * returns, the charted samples (`SampleKeeper`: pinned at the first snapshot, at fills and at
 * each charted market's first mid) and, when asked, the timeline.
 */
export class RunMeasurements {
  readonly #startX18: bigint;
  readonly #account: ScopeAccumulator;
  readonly #byInstance = new Map<string, ScopeAccumulator>();
  readonly #returns: ReturnsAccumulator;
  readonly #keeper: SampleKeeper<SampleParts>;
  readonly #timeline: { readonly t: number[]; readonly seq: number[] } | undefined;
  readonly #gaps = new Map<number, number>();
  #gapCount = 0;
  #previousAt: number | undefined;
  /** Each market's last mark, carried forward. */
  readonly #marks = new Map<number, bigint>();
  /**
   * One copy of each price and position the kept samples hold (marks, tops, amounts): each read
   * of a quote makes new bigints, and a long run keeps a sample per fill.
   */
  readonly #prices = new SharedValues();
  // Price charts: every market a strategy names (by symbol) or trades.
  readonly #named: ReadonlySet<string>;
  readonly #listed: ReadonlyMap<number, Market>;
  readonly #charted = new Set<number>();
  /** `#charted` by id ascending, sorted again only when it grew (it only grows). */
  #chartedSorted: number[] = [];
  /** The listing at which `#charted` last took in the listed markets. */
  #listing: ReadonlyMap<number, Market> | undefined;
  /** Markets whose first mid was not seen yet: that sample is kept (the benchmark starts there). */
  readonly #midSeen = new Set<number>();
  #fillsCharted = 0;
  #count = 0;
  #last: Snapshot | undefined;

  /**
   * @param named - the symbols the strategies name (their markets are charted once listed).
   * @param listed - every market listed so far (the replay's, growing as it goes).
   * @param sampleBuckets - stretches the chart samples are kept in (`SampleKeeper`).
   */
  constructor(options: {
    readonly startX18: bigint;
    readonly named: ReadonlySet<string>;
    readonly listed: ReadonlyMap<number, Market>;
    readonly sampleBuckets: number | undefined;
    readonly keepTimeline: boolean;
  }) {
    this.#startX18 = options.startX18;
    this.#account = new ScopeAccumulator(options.startX18);
    this.#returns = new ReturnsAccumulator(options.startX18);
    this.#keeper = new SampleKeeper<SampleParts>(options.sampleBuckets);
    this.#named = options.named;
    this.#listed = options.listed;
    this.#timeline = options.keepTimeline ? { t: [], seq: [] } : undefined;
  }

  /**
   * Measures the state after `snapshot` was replayed: `fills` is every fill so far, `plots` the
   * points plotted at this snapshot.
   */
  observe(
    snapshot: Snapshot,
    books: PositionSource,
    instanceNames: readonly string[],
    fills: readonly FillEvent[],
    plots: readonly PlotPoint[],
  ): void {
    this.#spacing(snapshot.takenAt);
    const pin = this.#chart(snapshot, fills);
    const accountMarkets = marketSamples(snapshot, books.positions, this.#marks, this.#prices);
    this.#account.push(accountMarkets);
    const byStrategy: StrategySample[] = [];
    // A sole instance placed every order of the account (a backtest has no other orders), so
    // its book is the account's: its samples and statistics are the account's, kept once.
    const sole = instanceNames.length === 1;
    for (const name of instanceNames) {
      const own = sole
        ? accountMarkets
        : marketSamples(snapshot, books.strategyPositions(name), this.#marks, this.#prices);
      let scope = this.#byInstance.get(name);
      if (scope === undefined)
        this.#byInstance.set(
          name,
          (scope = sole ? this.#account : new ScopeAccumulator(this.#startX18)),
        );
      if (scope !== this.#account) scope.push(own);
      if (own.length > 0 && !sole) byStrategy.push({ strategy: name, markets: own });
    }
    const { equityX18, drawdownX18 } = this.#account.total.equity();
    this.#returns.push(equityX18, snapshot.takenAt);
    this.#timeline?.t.push(snapshot.takenAt);
    this.#timeline?.seq.push(snapshot.seq);
    // Read only if the keeper may keep it: the tops are then of the markets charted by then.
    this.#keeper.offer(equityX18, drawdownX18, pin, () => ({
      sample: {
        seq: snapshot.seq,
        t: snapshot.takenAt,
        markets: accountMarkets,
        // A copy of its length: the pushed-to array has room for 17, and a kept sample holds
        // it to the end.
        byStrategy: sole ? (instanceNames[0] as string) : byStrategy.slice(),
        tops: keepTops(snapshot, this.#chartedIds(), this.#prices),
      },
      plots,
    }));
    this.#last = snapshot;
    this.#count += 1;
  }

  /** What was measured; read once the last snapshot was observed. */
  result(): RunMeasured {
    const kept = this.#keeper.result();
    return {
      snapshotIntervalMs: medianOfCounts(this.#gaps, this.#gapCount),
      samples: kept.samples.map(sampleOf),
      plots: kept.plots,
      measured: {
        startX18: this.#startX18,
        account: this.#account,
        strategies: this.#byInstance,
        returns: this.#returns,
      },
      timeline: this.#timeline,
      finalMarks: finalMarksOf(this.#last, this.#marks),
    };
  }

  /** Gap statistics: the spacing of consecutive snapshots. */
  #spacing(takenAt: number): void {
    if (this.#previousAt !== undefined) {
      const gap = takenAt - this.#previousAt;
      this.#gaps.set(gap, (this.#gaps.get(gap) ?? 0) + 1);
      this.#gapCount += 1;
    }
    this.#previousAt = takenAt;
  }

  /** Adds the markets charted since the last snapshot; whether this sample must be kept. */
  #chart(snapshot: Snapshot, fills: readonly FillEvent[]): boolean {
    if (snapshot.markets !== this.#listing) {
      for (const market of this.#listed.values())
        if (this.#named.has(market.symbol)) this.#charted.add(market.id);
      this.#listing = snapshot.markets;
    }
    let pin = this.#count === 0;
    if (fills.length > this.#fillsCharted) {
      for (let i = this.#fillsCharted; i < fills.length; i++)
        this.#charted.add((fills[i] as FillEvent).marketId);
      this.#fillsCharted = fills.length;
      pin = true;
    }
    if (this.#midSeen.size < this.#charted.size) {
      for (const marketId of this.#charted) {
        if (this.#midSeen.has(marketId)) continue;
        const quote = snapshot.quotes?.get(marketId);
        if (quote?.bids[0] === undefined && quote?.asks[0] === undefined) continue;
        this.#midSeen.add(marketId);
        pin = true;
      }
    }
    return pin;
  }

  #chartedIds(): readonly number[] {
    if (this.#chartedSorted.length !== this.#charted.size)
      this.#chartedSorted = [...this.#charted].sort((a, b) => a - b);
    return this.#chartedSorted;
  }
}

/** The median of values given as counts per value: the one at index ⌊n/2⌋ once sorted. */
function medianOfCounts(counts: ReadonlyMap<number, number>, n: number): number {
  if (n === 0) return 0;
  const target = Math.floor(n / 2);
  let seen = 0;
  for (const value of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(value) ?? 0;
    if (seen > target) return value;
  }
  return 0;
}

/** The marks at the end: the last snapshot's mid where it had a quote, else the last seen. */
function finalMarksOf(
  snapshot: Snapshot | undefined,
  marks: ReadonlyMap<number, bigint>,
): Map<number, bigint> {
  const final = new Map(marks);
  for (const [marketId, quote] of snapshot?.quotes ?? []) {
    const mark = markPriceX18(quote);
    if (mark !== undefined) final.set(marketId, mark);
  }
  return final;
}

const NO_MARKETS: MarketSample[] = [];

/** Where a sole instance's kept sample holds the instance's name (not enumerable). */
const SOLE_NAME = Symbol('sole instance');

/**
 * What a sample offered to the keeper is made of: the `Sample` is made at the end, of the kept
 * ones only (`sampleOf`). The keeper is offered one at most snapshots while it has room, and
 * drops most of them unread when it merges its stretches (a 5000-snapshot backtest that trades
 * nothing makes 3251 and keeps 1251); a `Sample` has four properties defined one by one, 1.1-1.5
 * µs a sample in a loop of such objects.
 */
interface SampleParts {
  readonly seq: number;
  readonly t: number;
  readonly markets: readonly MarketSample[];
  /** The list, or the sole instance's name (its list is then made when read, `soleSample`). */
  readonly byStrategy: StrategySample[] | string;
  readonly tops: KeptTops;
}

/** The kept sample of `parts`: the same fields, in the same order, as it was made at once. */
function sampleOf(parts: SampleParts): Sample {
  const { seq, t, markets, byStrategy, tops } = parts;
  if (typeof byStrategy === 'string') return soleSample(seq, t, markets, byStrategy, tops);
  return withTops({ seq, t, markets, byStrategy }, tops);
}

/** A kept sample of a sole instance, as {@link soleSample} makes it. */
interface SoleSample {
  readonly [SOLE_NAME]: string;
  readonly markets: readonly MarketSample[];
}

/** A sole instance's `byStrategy` of a kept sample: its one entry, the sample's own markets. */
function soleByStrategy(this: SoleSample): StrategySample[] {
  return this.markets.length === 0 ? [] : [{ strategy: this[SOLE_NAME], markets: this.markets }];
}

/**
 * A kept sample of a run with one instance. Its `byStrategy` is an enumerable accessor (one
 * function for every sample, so they keep one hidden class) giving what the list held: the
 * instance's name over the sample's own `markets`, none while it holds no market. The fields
 * come in the same order: spread, `JSON.stringify` and deep equality see the same fields and
 * values, though each read makes a new list. A long run keeps a sample per fill, and the list
 * and its entry were 96 bytes of each (test/bench/backtest-heap.bench.ts).
 */
function soleSample(
  seq: number,
  t: number,
  markets: readonly MarketSample[],
  name: string,
  tops: KeptTops,
): Sample {
  const sample: Omit<Sample, 'byStrategy' | 'tops'> = { seq, t, markets };
  Object.defineProperty(sample, SOLE_NAME, { value: name });
  Object.defineProperty(sample, 'byStrategy', { get: soleByStrategy, enumerable: true });
  return withTops(sample as Omit<Sample, 'tops'>, tops);
}

/** The markets of a position book after a snapshot, valued at its marks (carried forward). */
function marketSamples(
  snapshot: Snapshot,
  book: PositionBook,
  marks: Map<number, bigint>,
  prices: SharedValues,
): MarketSample[] {
  const entries = book.sortedEntries();
  if (entries.length === 0) return NO_MARKETS;
  return entries.map(([marketId, position]) => {
    const mark = markPriceX18(snapshot.quotes?.get(marketId));
    if (mark !== undefined && mark !== marks.get(marketId)) marks.set(marketId, prices.mark(mark));
    const held = prices.held(marketId, position);
    return {
      marketId,
      positionX18: held.amountX18,
      markPriceX18: marks.get(marketId) ?? 0n,
      avgEntryPriceX18: held.avgEntryPriceX18,
      realizedPnlX18: held.realizedPnlX18,
      feesX18: position.feesX18,
      turnoverX18: position.turnoverX18,
    };
  });
}
