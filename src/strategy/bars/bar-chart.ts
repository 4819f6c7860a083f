import { parseSignedDecimalToX18 } from '../../money/index.ts';
import { chartPlacement, type ChartPlacement } from '../indicators/chart-placement.ts';
import type { IndicatorSet } from '../indicators/spec.ts';
import type { ClosedBar } from './bar.ts';
import { barStart, coarserTimeframeMs, formatTimeframe } from './timeframe.ts';

/** At most this many candles are kept per market: a day of 1-minute bars fits (1440). */
export const MAX_CHART_CANDLES = 3000;

/** One registered indicator as the report draws it: one value per candle and field. */
export interface BarChartIndicator {
  /** The name the strategy registered it under (`fast`). */
  readonly name: string;
  /** What it is (`ema(9)`). */
  readonly label: string;
  /** The timeframe whose bars update it. */
  readonly timeframe: string;
  /** Where it is drawn and how (chart-placement.ts, the one table). */
  readonly placement: ChartPlacement;
  /** `["value"]` for an indicator with one number, else its value's fields (`macd`, `signal`…). */
  readonly fields: readonly string[];
  /**
   * Per field, per candle: the indicator's value as of the candle's close (a number: a signal,
   * not money), null while it had none. An indicator of a longer timeframe holds its last value
   * until its own next bar closes.
   */
  readonly values: readonly (readonly (number | null)[])[];
}

/** The candles of one strategy instance's bars in one market, with its indicators. */
export interface BarChart {
  readonly strategy: string;
  readonly marketId: number;
  readonly symbol: string;
  /** The strategy's bars drawn: its first declared (shortest) timeframe, like `"1m"`. */
  readonly barTimeframe: string;
  /** The candles' length: the bars' own, or longer when there were too many to draw. */
  readonly timeframe: string;
  readonly ms: number;
  /** How many of the strategy's bars the candles hold. */
  readonly bars: number;
  /** Each candle's open time (ms, UTC-aligned). */
  readonly t: readonly number[];
  /** The bars' prices (decimal strings, exact): the first open, extremes, the last close. */
  readonly open: readonly string[];
  readonly high: readonly string[];
  readonly low: readonly string[];
  readonly close: readonly string[];
  readonly indicators: readonly BarChartIndicator[];
}

/** One candle being kept: prices exact, with their numbers to compare cheaply. */
interface Candle {
  t: number;
  open: string;
  high: string;
  highN: number;
  low: string;
  lowN: number;
  close: string;
  /** Each indicator's value (in registration order) as of the candle's close. */
  values: unknown[];
}

interface MarketCandles {
  readonly symbol: string;
  readonly candles: Candle[];
  /** The candles' length. */
  ms: number;
  /** Close time of the last bar folded in: later commits with the same close refresh values. */
  lastEnd: number;
  bars: number;
}

/** Whether exact decimal `a` (number `an`) is above `b` (`bn`); numbers first, exact on a tie. */
function above(a: string, an: number, b: string, bn: number): boolean {
  if (an !== bn) return an > bn;
  return parseSignedDecimalToX18(a, 'bar price') > parseSignedDecimalToX18(b, 'bar price');
}

/**
 * Keeps what the backtest report draws of one strategy instance's bars (issue 27): the bars of
 * its first declared timeframe in each of its markets, as the one bar aggregator committed
 * them, and the value of every registered indicator as of each bar's close. Told about every
 * committed bar after the indicators were updated with it.
 *
 * Bounded: at most {@link MAX_CHART_CANDLES} candles per market. When a bar would make one more,
 * the candles are merged into the next longer timeframe that divides a day
 * (`coarserTimeframeMs`: 1m, 5m, 15m, 30m, 1h, 4h, 1d), each keeping its first open, highest
 * high, lowest low and last close, and the indicator values of its last bar.
 */
export class BarChartRecorder {
  readonly #strategy: string;
  readonly #baseMs: number;
  readonly #baseTimeframe: string;
  readonly #names: readonly string[];
  readonly #specs: IndicatorSet;
  readonly #views: (marketId: number) => Readonly<Record<string, { readonly value: unknown }>>;
  readonly #markets = new Map<number, MarketCandles>();
  readonly #cap: number;

  constructor(options: {
    readonly strategy: string;
    /** The first declared timeframe: the bars drawn. */
    readonly timeframe: string;
    readonly ms: number;
    readonly indicators: IndicatorSet;
    /** The indicators' live values of a market (`IndicatorBank.views`). */
    readonly views: (marketId: number) => Readonly<Record<string, { readonly value: unknown }>>;
    /** Candles kept per market (default {@link MAX_CHART_CANDLES}); at least 2. */
    readonly maxCandles?: number;
  }) {
    this.#strategy = options.strategy;
    this.#baseMs = options.ms;
    this.#baseTimeframe = options.timeframe;
    this.#specs = options.indicators;
    this.#names = Object.keys(options.indicators);
    this.#views = options.views;
    this.#cap = Math.max(2, options.maxCandles ?? MAX_CHART_CANDLES);
  }

  /** Takes one committed bar (of any declared timeframe), after the indicators took it. */
  commit(closed: ClosedBar): void {
    const bar = closed.bar;
    let market = this.#markets.get(bar.marketId);
    if (closed.ms === this.#baseMs) {
      if (market === undefined) {
        market = { symbol: bar.symbol, candles: [], ms: this.#baseMs, lastEnd: 0, bars: 0 };
        this.#markets.set(bar.marketId, market);
      }
      this.#add(market, closed);
    }
    if (market === undefined || market.lastEnd !== bar.end) return;
    const last = market.candles[market.candles.length - 1];
    if (last !== undefined) last.values = this.#valuesOf(bar.marketId);
  }

  #valuesOf(marketId: number): unknown[] {
    const views = this.#views(marketId);
    return this.#names.map((name) => views[name]?.value);
  }

  #add(market: MarketCandles, closed: ClosedBar): void {
    const bar = closed.bar;
    market.bars += 1;
    market.lastEnd = bar.end;
    const t = barStart(bar.start, market.ms);
    // Its indicator values are set by `commit` once every bar closing with it is in.
    const candle: Candle = {
      t,
      open: bar.open,
      high: bar.high,
      highN: closed.high,
      low: bar.low,
      lowN: closed.low,
      close: bar.close,
      values: [],
    };
    const last = market.candles[market.candles.length - 1];
    if (last !== undefined && last.t === t) {
      fold(last, candle);
      return;
    }
    market.candles.push(candle);
    if (market.candles.length > this.#cap) coarsen(market);
  }

  /** Every market's candles, by market id. */
  charts(): BarChart[] {
    return [...this.#markets]
      .sort(([a], [b]) => a - b)
      .map(([marketId, market]) => ({
        strategy: this.#strategy,
        marketId,
        symbol: market.symbol,
        barTimeframe: this.#baseTimeframe,
        timeframe: formatTimeframe(market.ms),
        ms: market.ms,
        bars: market.bars,
        t: market.candles.map((c) => c.t),
        open: market.candles.map((c) => c.open),
        high: market.candles.map((c) => c.high),
        low: market.candles.map((c) => c.low),
        close: market.candles.map((c) => c.close),
        indicators: this.#names.map((name, index) =>
          indicatorSeries(name, this.#specs[name], market.candles, index),
        ),
      }));
  }
}

/** Folds the later candle `next` into `into` (same chart candle). */
function fold(into: Candle, next: Candle): void {
  if (above(next.high, next.highN, into.high, into.highN)) {
    into.high = next.high;
    into.highN = next.highN;
  }
  if (above(into.low, into.lowN, next.low, next.lowN)) {
    into.low = next.low;
    into.lowN = next.lowN;
  }
  into.close = next.close;
  into.values = next.values;
}

/** Merges a market's candles into the next longer timeframe until they fit again. */
function coarsen(market: MarketCandles): void {
  const ms = coarserTimeframeMs(market.ms);
  const merged: Candle[] = [];
  for (const candle of market.candles) {
    const t = barStart(candle.t, ms);
    const last = merged[merged.length - 1];
    if (last !== undefined && last.t === t) fold(last, candle);
    else merged.push({ ...candle, t });
  }
  market.ms = ms;
  market.candles.length = 0;
  for (const candle of merged) market.candles.push(candle);
}

/** One indicator's values of every candle, split into its fields. */
function indicatorSeries(
  name: string,
  spec: IndicatorSet[string] | undefined,
  candles: readonly Candle[],
  index: number,
): BarChartIndicator {
  const raw = candles.map((candle) => candle.values[index]);
  const sample = raw.find((value) => value !== undefined && value !== null);
  const fields =
    typeof sample === 'object' && sample !== null
      ? Object.keys(sample).filter(
          (key) => typeof (sample as Record<string, unknown>)[key] === 'number',
        )
      : ['value'];
  const finite = (value: unknown): number | null =>
    typeof value === 'number' && Number.isFinite(value) ? value : null;
  return {
    name,
    label: spec?.label ?? name,
    timeframe: spec?.timeframe ?? '',
    placement: chartPlacement(spec?.kind),
    fields,
    values: fields.map((field) =>
      raw.map((value) =>
        typeof value === 'object' && value !== null
          ? finite((value as Record<string, unknown>)[field])
          : finite(value),
      ),
    ),
  };
}
