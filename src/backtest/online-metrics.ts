import { unrealizedPnlX18 } from '../domain/account/index.ts';
import { notionalX18 } from '../money/index.ts';
import { bigintRatio, formatRatio } from './ratio-decimal.ts';
import type { RiskRatios } from './risk-ratios.ts';
import type { periodsPerYear } from './risk-ratios.ts';
import type { MarketSample } from './market-sample.ts';
import { DayCloses } from './period-returns.ts';
import { EquityChanges } from './equity-changes.ts';

// The same constants as risk-ratios.ts: these accumulators compute exactly what
// computeRiskRatios computes from the whole series, one sample at a time.
const RETURN_SCALE = 10n ** 30n;
const NO_VARIANCE_SCALED = 10n ** 30n;

/** One sample's values of a series (a market's, or the sum over markets). All x18. */
export interface SeriesPoint {
  readonly realizedPnlX18: bigint;
  readonly feesX18: bigint;
  readonly turnoverX18: bigint;
  readonly unrealizedPnlX18: bigint;
  readonly netPnlX18: bigint;
  readonly grossNotionalX18: bigint;
  readonly inMarket: boolean;
}

/**
 * Every figure `computeMetrics` takes from one PnL series, kept as running sums, extremes and
 * last values instead of the series: equity `start + net` at each sample, its drawdown from the
 * running peak (absolute and the exact largest fraction of the peak), the sums behind Sharpe and
 * Sortino (returns as 10^-30 fixed-point bigints, as `computeRiskRatios`), samples in the market
 * and the sum of gross notional. Memory: constant. (The win rate is counted on round trips, from
 * the fills: `winRateOf` in round-trips.ts.)
 */
export class PnlAccumulator {
  readonly startX18: bigint;
  samples = 0;
  realizedPnlX18 = 0n;
  feesX18 = 0n;
  turnoverX18 = 0n;
  unrealizedPnlX18 = 0n;
  netPnlX18 = 0n;
  inMarketSamples = 0;
  grossSumX18 = 0n;
  /** Largest drawdown, quote units. */
  maxDrawdownX18 = 0n;
  /** Largest drawdown as the exact fraction numerator / denominator of its peak. */
  drawdownNumerator = 0n;
  drawdownDenominator = 1n;
  #peak: bigint;
  #previousEquity: bigint;
  #previousNet = 0n;
  #ruined = false;
  #sum = 0n;
  #sumSquares = 0n;
  #downsideSquares = 0n;

  /**
   * @param startX18 - equity before the first sample.
   * @param flatSamples - samples before this series began (a market first traded later): each
   *   one flat at zero PnL, as the whole-series computation sees them.
   */
  constructor(startX18: bigint, flatSamples = 0) {
    this.startX18 = startX18;
    this.#peak = startX18;
    this.#previousEquity = startX18;
    // Flat samples: equity = start, no drawdown, a zero return each (ruin only with start ≤ 0).
    if (flatSamples > 0 && startX18 <= 0n) this.#ruined = true;
    this.samples = flatSamples;
  }

  push(point: SeriesPoint): void {
    this.samples += 1;
    this.realizedPnlX18 = point.realizedPnlX18;
    this.feesX18 = point.feesX18;
    this.turnoverX18 = point.turnoverX18;
    this.unrealizedPnlX18 = point.unrealizedPnlX18;
    this.netPnlX18 = point.netPnlX18;
    if (point.inMarket) this.inMarketSamples += 1;
    // (A flat market adds nothing: no new bigint for it every snapshot.)
    if (point.grossNotionalX18 !== 0n) this.grossSumX18 += point.grossNotionalX18;
    const previous = this.#previousEquity;
    if (point.netPnlX18 === this.#previousNet && this.samples > 1) {
      // Equity unchanged (a flat stretch): no new peak or drawdown, a zero return.
      if (previous <= 0n) this.#ruined = true;
      return;
    }
    this.#previousNet = point.netPnlX18;
    const equity = this.startX18 + point.netPnlX18;
    // Drawdown, as computeDrawdown.
    if (equity > this.#peak) this.#peak = equity;
    const drawdown = this.#peak - equity;
    if (drawdown > this.maxDrawdownX18) this.maxDrawdownX18 = drawdown;
    if (
      drawdown > this.drawdownNumerator &&
      this.#peak > 0n &&
      drawdown * this.drawdownDenominator > this.drawdownNumerator * this.#peak
    ) {
      this.drawdownNumerator = drawdown;
      this.drawdownDenominator = this.#peak;
    }
    // Returns, as computeRiskRatios (which gives up once a previous equity is ≤ 0).
    if (previous <= 0n) this.#ruined = true;
    else if (!this.#ruined) {
      const r = ((equity - previous) * RETURN_SCALE) / previous;
      const squared = r * r;
      this.#sum += r;
      this.#sumSquares += squared;
      if (r < 0n) this.#downsideSquares += squared;
    }
    this.#previousEquity = equity;
  }

  /** The current equity (start + net PnL) and its drawdown from the running peak. */
  equity(): { equityX18: bigint; drawdownX18: bigint } {
    const equityX18 = this.startX18 + this.netPnlX18;
    return { equityX18, drawdownX18: this.#peak - equityX18 };
  }

  /** Sharpe and Sortino exactly as `computeRiskRatios` gives them for the whole series. */
  ratios(perYear: ReturnType<typeof periodsPerYear>): RiskRatios {
    const none: RiskRatios = { sharpe: null, sortino: null };
    if (perYear === null || this.samples === 0 || this.#ruined) return none;
    const n = BigInt(this.samples);
    const annualize = perYear.sqrt();
    const mean = bigintRatio(this.#sum, n);
    let sharpe: string | null = null;
    if (n >= 2n) {
      const spread = n * this.#sumSquares - this.#sum * this.#sum;
      const pairs = n * (n - 1n);
      if (spread > pairs * NO_VARIANCE_SCALED) {
        sharpe = formatRatio(mean.div(bigintRatio(spread, pairs).sqrt()).times(annualize));
      }
    }
    const sortino =
      this.#downsideSquares === 0n
        ? null
        : formatRatio(mean.div(bigintRatio(this.#downsideSquares, n).sqrt()).times(annualize));
    return { sharpe, sortino };
  }
}

/** A market of a scope: its running figures and where it stands at the last sample. */
export interface MarketAccumulator {
  readonly acc: PnlAccumulator;
  /** Its last sample (carried forward while a sample leaves the market out). */
  lastSample: MarketSample;
  /** The last non-zero mark seen. */
  lastMark: bigint | undefined;
  /** The mark that valued the last sample. */
  mark: bigint;
}

/**
 * The figures of one scope (the account, or one strategy instance) over its samples, one sample
 * at a time: per market as `computeEquityCurve` values it (the last non-zero mark carried
 * forward, the entry price before any; a market missing from a sample keeps its previous values
 * and is flat before it first appears) and in total. Memory grows with the markets, never with
 * the samples.
 */
export class ScopeAccumulator {
  readonly startX18: bigint;
  readonly markets = new Map<number, MarketAccumulator>();
  readonly total: PnlAccumulator;
  #samples = 0;

  constructor(startX18: bigint) {
    this.startX18 = startX18;
    this.total = new PnlAccumulator(startX18);
  }

  get samples(): number {
    return this.#samples;
  }

  /** Adds one sample: the scope's markets after a snapshot. */
  push(markets: readonly MarketSample[]): void {
    for (const sample of markets) {
      const known = this.markets.get(sample.marketId);
      if (known !== undefined) known.lastSample = sample;
      else {
        this.markets.set(sample.marketId, {
          acc: new PnlAccumulator(this.startX18, this.#samples),
          lastSample: sample,
          lastMark: undefined,
          mark: 0n,
        });
      }
    }
    let realized = 0n;
    let fees = 0n;
    let turnover = 0n;
    let unrealizedSum = 0n;
    let netSum = 0n;
    let grossSum = 0n;
    let inMarket = false;
    for (const market of this.markets.values()) {
      const state = market.lastSample;
      if (state.markPriceX18 > 0n) market.lastMark = state.markPriceX18;
      const mark = market.lastMark ?? state.avgEntryPriceX18;
      market.mark = mark;
      const unrealized = unrealizedPnlX18(state.positionX18, state.avgEntryPriceX18, mark);
      const net = state.realizedPnlX18 - state.feesX18 + unrealized;
      const absPosition = state.positionX18 < 0n ? -state.positionX18 : state.positionX18;
      const gross = notionalX18(absPosition, mark);
      const position = state.positionX18 !== 0n;
      market.acc.push({
        realizedPnlX18: state.realizedPnlX18,
        feesX18: state.feesX18,
        turnoverX18: state.turnoverX18,
        unrealizedPnlX18: unrealized,
        netPnlX18: net,
        grossNotionalX18: gross,
        inMarket: position,
      });
      realized += state.realizedPnlX18;
      fees += state.feesX18;
      turnover += state.turnoverX18;
      unrealizedSum += unrealized;
      netSum += net;
      grossSum += gross;
      if (position) inMarket = true;
    }
    this.total.push({
      realizedPnlX18: realized,
      feesX18: fees,
      turnoverX18: turnover,
      unrealizedPnlX18: unrealizedSum,
      netPnlX18: netSum,
      grossNotionalX18: grossSum,
      inMarket,
    });
    this.#samples += 1;
  }
}

/**
 * The per-snapshot returns the tearsheet's histogram needs: how many were exactly zero, and the
 * equity before and after each other one (a do-nothing or flat stretch keeps nothing); and the
 * equity at each UTC day's last snapshot, for the returns per day and per month.
 */
export class ReturnsAccumulator {
  zero = 0;
  /** Each nonzero change as the equity before and after it (8 bytes each: `EquityChanges`). */
  readonly changes: EquityChanges;
  readonly days = new DayCloses();
  #previous: bigint;

  constructor(startX18: bigint) {
    this.#previous = startX18;
    this.changes = new EquityChanges(startX18);
  }

  /** Adds the account's equity after the snapshot taken at `t` (ms). */
  push(equityX18: bigint, t: number): void {
    this.days.push(t, equityX18);
    if (equityX18 === this.#previous) this.zero += 1;
    else this.changes.push(equityX18);
    this.#previous = equityX18;
  }
}

/**
 * What a backtest measured while it ran, at the fill model's starting capital: the account's and
 * each instance's accumulators and the returns, so metrics need not keep every sample.
 */
export interface MeasuredRun {
  readonly startX18: bigint;
  readonly account: ScopeAccumulator;
  /** By instance name; every instance pushed at every sample. */
  readonly strategies: ReadonlyMap<string, ScopeAccumulator>;
  readonly returns: ReturnsAccumulator;
}
