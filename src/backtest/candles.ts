import { formatX18 } from '../money/index.ts';
import { barStart, CHART_TIMEFRAMES_MS, formatTimeframe } from '../strategy/bars/timeframe.ts';

/** OHLC of the mid per time bar: what the report's candlestick chart draws. */
export interface Candles {
  /** The bar length, as a timeframe (`"1m"`). */
  readonly timeframe: string;
  /** The same in ms. */
  readonly ms: number;
  /** Each bar's open time (ms, aligned to UTC like the strategies' bars). */
  readonly t: readonly number[];
  /** Mid prices (decimal strings). */
  readonly open: readonly string[];
  readonly high: readonly string[];
  readonly low: readonly string[];
  readonly close: readonly string[];
}

/** At most this many candles on a chart: enough to read, few enough to stay light. */
export const MAX_CANDLES = 500;

/** Snapshots a candle should hold at least, so its body and wicks say something. */
const SNAPSHOTS_PER_CANDLE = 3;

/**
 * The shortest bar length of `CHART_TIMEFRAMES_MS` that holds at least {@link SNAPSHOTS_PER_CANDLE}
 * snapshots taken every `intervalMs` and covers `spanMs` in at most {@link MAX_CANDLES} bars.
 */
export function candleMs(spanMs: number, intervalMs: number): number {
  return (
    CHART_TIMEFRAMES_MS.find(
      (ms) => ms >= SNAPSHOTS_PER_CANDLE * intervalMs && Math.floor(spanMs / ms) + 1 <= MAX_CANDLES,
    ) ?? 86_400_000
  );
}

/**
 * Cuts a series of mids (by time, ascending) into candles of `ms`: each bar's first, highest,
 * lowest and last mid, by the same UTC-aligned bar starts as the strategies' bars
 * (`barStart`). A bar without a mid (no quotes, a one-sided book) is left out: the chart shows
 * a gap rather than a made-up price. Exact: the prices are the recorded mids.
 */
export function midCandles(
  points: readonly { readonly t: number; readonly midX18: bigint | undefined }[],
  ms: number,
): Candles {
  const t: number[] = [];
  const open: bigint[] = [];
  const high: bigint[] = [];
  const low: bigint[] = [];
  const close: bigint[] = [];
  for (const point of points) {
    const mid = point.midX18;
    if (mid === undefined) continue;
    const start = barStart(point.t, ms);
    const last = t.length - 1;
    if (last >= 0 && t[last] === start) {
      if (mid > (high[last] as bigint)) high[last] = mid;
      if (mid < (low[last] as bigint)) low[last] = mid;
      close[last] = mid;
      continue;
    }
    t.push(start);
    open.push(mid);
    high.push(mid);
    low.push(mid);
    close.push(mid);
  }
  return {
    timeframe: formatTimeframe(ms),
    ms,
    t,
    open: open.map((v) => formatX18(v)),
    high: high.map((v) => formatX18(v)),
    low: low.map((v) => formatX18(v)),
    close: close.map((v) => formatX18(v)),
  };
}
