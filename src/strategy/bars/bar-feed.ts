import { bestPriceX18 } from '../../market/best-price.ts';
import { markPriceX18 } from '../../market/mark-price.ts';
import type { Snapshot } from '../../market/snapshot.ts';
import { BarBuilder, type Bar, type ClosedBar } from './bar.ts';
import type { TimeframePlan } from './bar-plan.ts';

/** The bars of one market and timeframe: the builder, the kept history, the bars closed so far. */
interface Series {
  readonly builder: BarBuilder;
  readonly plan: TimeframePlan;
  /** Oldest first; trimmed to `plan.history` once it holds twice that (amortized O(1)). */
  history: Bar[];
  /** Bars committed since start (warm-up counts these, not the trimmed history). */
  count: number;
}

/** Told about every bar as it is committed (the indicators, before `onBar`). */
export type CommitListener = (closed: ClosedBar) => void;

/**
 * The bars of one strategy instance: one builder per market and declared timeframe, fed every
 * snapshot. Bars a snapshot closes wait in a queue and are committed one at a time (appended to
 * the history, passed to the indicators) just before the strategy's `onBar` sees each, so that
 * `ctx.bars` and the indicators in an `onBar` show exactly the bars up to that one.
 *
 * Live, paper and backtest hand the host the same snapshots, so they build the same bars.
 */
export class BarFeed {
  readonly #plans: readonly TimeframePlan[];
  readonly #series = new Map<number, Series[]>();
  readonly #queue: ClosedBar[] = [];
  #head = 0;
  readonly #scratch: ClosedBar[] = [];
  readonly #onCommit: CommitListener | undefined;

  constructor(plans: readonly TimeframePlan[], onCommit?: CommitListener) {
    this.#plans = plans;
    this.#onCommit = onCommit;
  }

  /** True when no timeframe is declared (the feed does nothing). */
  get empty(): boolean {
    return this.#plans.length === 0;
  }

  /**
   * Builds bars from one snapshot for the given markets. Bars it closes are queued, ordered by
   * close time, then timeframe (shorter first), then market id, the same in every mode.
   */
  update(snapshot: Snapshot, marketIds: readonly number[]): void {
    if (this.#plans.length === 0) return;
    const out = this.#scratch;
    const t = snapshot.takenAt;
    for (const marketId of marketIds) {
      const series = this.#seriesOf(marketId, snapshot);
      if (series === undefined) continue;
      // Candle history: the candle is the bar's data, taken as it is.
      const candle = snapshot.candles?.get(marketId);
      if (candle !== undefined) {
        for (const one of series) one.builder.candle(candle, out);
        continue;
      }
      // A stale snapshot repeats old data: it moves time on but adds no price.
      const quote = snapshot.stale ? undefined : snapshot.quotes?.get(marketId);
      const mid = markPriceX18(quote);
      const bid = mid === undefined ? undefined : bestPriceX18(quote, 'bids');
      const ask = mid === undefined ? undefined : bestPriceX18(quote, 'asks');
      for (const one of series) one.builder.update(t, mid, bid, ask, out);
    }
    if (out.length === 0) return;
    if (out.length > 1) out.sort(closeOrder);
    if (this.#head === this.#queue.length) {
      this.#queue.length = 0;
      this.#head = 0;
    }
    for (const closed of out) this.#queue.push(closed);
    out.length = 0;
  }

  /** Commits the next queued bar and returns it, or undefined when none waits. */
  next(): Bar | undefined {
    const closed = this.#queue[this.#head];
    if (closed === undefined) return undefined;
    this.#head += 1;
    const series = this.#series.get(closed.bar.marketId)?.find((one) => one.plan.ms === closed.ms);
    if (series !== undefined) {
      series.history.push(closed.bar);
      series.count += 1;
      if (series.history.length >= 2 * series.plan.history)
        series.history = series.history.slice(-series.plan.history);
    }
    this.#onCommit?.(closed);
    return closed.bar;
  }

  /** Adds a fill of this strategy to the open bars of its market. */
  addVolume(marketId: number, amountX18: bigint): void {
    for (const one of this.#series.get(marketId) ?? []) one.builder.addVolume(amountX18);
  }

  /** The committed bars of a market and timeframe, oldest first, at most its history. */
  bars(marketId: number, timeframe: string): readonly Bar[] | undefined {
    const series = this.#series.get(marketId)?.find((one) => one.plan.timeframe === timeframe);
    if (series === undefined)
      return this.#plans.some((plan) => plan.timeframe === timeframe) ? [] : undefined;
    const { history, plan } = series;
    return history.length <= plan.history ? history.slice() : history.slice(-plan.history);
  }

  /** Bars committed since start for a market and timeframe. */
  count(marketId: number, timeframe: string): number {
    return this.#series.get(marketId)?.find((one) => one.plan.timeframe === timeframe)?.count ?? 0;
  }

  /** The declared timeframes, shortest first. */
  get timeframes(): readonly TimeframePlan[] {
    return this.#plans;
  }

  #seriesOf(marketId: number, snapshot: Snapshot): Series[] | undefined {
    let series = this.#series.get(marketId);
    if (series !== undefined) return series;
    const market = snapshot.markets.get(marketId);
    if (market === undefined) return undefined;
    series = this.#plans.map((plan) => ({
      builder: new BarBuilder(marketId, market.symbol, plan.timeframe, plan.ms),
      plan,
      history: [],
      count: 0,
    }));
    this.#series.set(marketId, series);
    return series;
  }
}

function closeOrder(a: ClosedBar, b: ClosedBar): number {
  return a.bar.end - b.bar.end || a.ms - b.ms || a.bar.marketId - b.bar.marketId;
}
