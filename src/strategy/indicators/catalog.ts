/**
 * The indicators of `quanta/indicators`: a curated few of trading-signals (MIT, no
 * dependencies, streaming `add()` updates; each bar is added once), each fed the closed bars of
 * one timeframe. The formulas are the library's: EMA is seeded with the first close and reported
 * from the period-th bar; RSI, ATR and ADX smooth the Wilder way (an SMA of the first period,
 * then 1/period); Bollinger Bands use the population standard deviation.
 */
import {
  ADX,
  ATR,
  BollingerBands,
  EMA,
  MACD,
  OBV,
  RSI,
  SMA,
  StochasticOscillator,
  VWAP,
  WMA,
} from 'trading-signals';
import { ErrorCodes, QuantaError } from '../../errors/index.ts';
import type { ClosedBar } from '../bars/bar.ts';
import { timeframeMs } from '../bars/timeframe.ts';
import type { IndicatorKind } from './chart-placement.ts';
import type { IndicatorEngine, IndicatorSpec } from './spec.ts';

/** The longest period an indicator may have (a window is kept per market). */
const MAX_PERIOD = 100_000;

/** Where a volume-based indicator takes its volume from (the venue publishes no trades). */
export type VolumeSource = 'ticks' | 'own';

function period(label: string, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_PERIOD)
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `${label}: ${name} must be a whole number from 1 to ${MAX_PERIOD}, got ${String(value)}`,
    );
  return value;
}

function spec<V>(
  timeframe: string,
  label: string,
  create: () => IndicatorEngine<V>,
): IndicatorSpec<V> {
  const ms = timeframeMs(timeframe);
  if (typeof ms === 'string') throw new QuantaError(ErrorCodes.STRATEGY_LOAD, `${label}: ${ms}`);
  // The kind is the label's name: `ema(21)` is an ema (chart-placement.ts says where it is drawn).
  const kind = label.slice(0, label.indexOf('(')) as IndicatorKind;
  return Object.freeze({ timeframe, label, kind, create });
}

/** An indicator of the close (SMA, EMA, WMA, RSI): its value once the library calls it stable. */
function ofClose(indicator: {
  add(price: number): unknown;
  isStable: boolean;
  getResult(): number | null;
}): IndicatorEngine<number> {
  return {
    add(bar) {
      indicator.add(bar.close);
      return indicator.isStable ? (indicator.getResult() ?? undefined) : undefined;
    },
  };
}

function volumeOf(bar: ClosedBar, source: VolumeSource): number {
  return source === 'own' ? bar.volume : bar.ticks;
}

/**
 * Simple moving average of the close over `length` bars.
 *
 * @example
 * indicators: () => ({ trend: sma('1h', 50) })
 */
export function sma(timeframe: string, length: number): IndicatorSpec<number> {
  const label = `sma(${length})`;
  const n = period(label, 'length', length);
  return spec(timeframe, label, () => ofClose(new SMA(n)));
}

/** Exponential moving average of the close (α = 2 / (length + 1)), reported from the length-th bar. */
export function ema(timeframe: string, length: number): IndicatorSpec<number> {
  const label = `ema(${length})`;
  const n = period(label, 'length', length);
  return spec(timeframe, label, () => ofClose(new EMA(n)));
}

/** Weighted moving average of the close (weights 1 … length, the newest heaviest). */
export function wma(timeframe: string, length: number): IndicatorSpec<number> {
  const label = `wma(${length})`;
  const n = period(label, 'length', length);
  return spec(timeframe, label, () => ofClose(new WMA(n)));
}

/** Wilder's relative strength index of the close, 0 to 100, from the (length + 1)-th bar. */
export function rsi(timeframe: string, length = 14): IndicatorSpec<number> {
  const label = `rsi(${length})`;
  const n = period(label, 'length', length);
  return spec(timeframe, label, () => ofClose(new RSI(n)));
}

/** MACD line (fast EMA − slow EMA), its signal line (an EMA of it) and their difference. */
export interface MacdValue {
  readonly macd: number;
  readonly signal: number;
  readonly histogram: number;
}

/** MACD of the close; a value once the signal EMA has `signal` MACD values. */
export function macd(
  timeframe: string,
  { fast = 12, slow = 26, signal = 9 }: { fast?: number; slow?: number; signal?: number } = {},
): IndicatorSpec<MacdValue> {
  const label = `macd(${fast},${slow},${signal})`;
  const [f, s, g] = [
    period(label, 'fast', fast),
    period(label, 'slow', slow),
    period(label, 'signal', signal),
  ];
  if (f >= s)
    throw new QuantaError(ErrorCodes.STRATEGY_LOAD, `${label}: fast must be shorter than slow`);
  return spec(timeframe, label, () => {
    const signalEma = new EMA(g);
    const indicator = new MACD(new EMA(f), new EMA(s), signalEma);
    return {
      add(bar) {
        const result = indicator.add(bar.close);
        if (result === null || !signalEma.isStable) return undefined;
        return { macd: result.macd, signal: result.signal, histogram: result.histogram };
      },
    };
  });
}

/** Bollinger Bands: the SMA and `stdDevs` population standard deviations above and below. */
export interface BandsValue {
  readonly lower: number;
  readonly middle: number;
  readonly upper: number;
}

/** Bollinger Bands of the close over `length` bars. */
export function bollinger(timeframe: string, length = 20, stdDevs = 2): IndicatorSpec<BandsValue> {
  const label = `bollinger(${length},${stdDevs})`;
  const n = period(label, 'length', length);
  if (!Number.isFinite(stdDevs) || stdDevs <= 0)
    throw new QuantaError(ErrorCodes.STRATEGY_LOAD, `${label}: stdDevs must be a positive number`);
  return spec(timeframe, label, () => {
    const indicator = new BollingerBands(n, stdDevs);
    return {
      add(bar) {
        const result = indicator.add(bar.close);
        return result === null
          ? undefined
          : { lower: result.lower, middle: result.middle, upper: result.upper };
      },
    };
  });
}

/** Average true range (Wilder), in price units, from the length-th bar. */
export function atr(timeframe: string, length = 14): IndicatorSpec<number> {
  const label = `atr(${length})`;
  const n = period(label, 'length', length);
  return spec(timeframe, label, () => {
    const indicator = new ATR(n);
    return {
      add(bar) {
        return indicator.add({ high: bar.high, low: bar.low, close: bar.close }) ?? undefined;
      },
    };
  });
}

/** Stochastic oscillator: %K (smoothed over `slowing` bars) and %D (an SMA of %K), 0 to 100. */
export interface StochasticValue {
  readonly k: number;
  readonly d: number;
}

/** Stochastic oscillator over the highs and lows of `k` bars. */
export function stochastic(
  timeframe: string,
  { k = 14, slowing = 3, d = 3 }: { k?: number; slowing?: number; d?: number } = {},
): IndicatorSpec<StochasticValue> {
  const label = `stochastic(${k},${slowing},${d})`;
  const config = {
    kPeriod: period(label, 'k', k),
    kSlowingPeriod: period(label, 'slowing', slowing),
    dPeriod: period(label, 'd', d),
  };
  return spec(timeframe, label, () => {
    const indicator = new StochasticOscillator(config);
    return {
      add(bar) {
        const result = indicator.add({ high: bar.high, low: bar.low, close: bar.close });
        return result === null ? undefined : { k: result.stochK, d: result.stochD };
      },
    };
  });
}

/** Average directional index (Wilder), 0 to 100: trend strength, not direction. */
export function adx(timeframe: string, length = 14): IndicatorSpec<number> {
  const label = `adx(${length})`;
  const n = period(label, 'length', length);
  return spec(timeframe, label, () => {
    const indicator = new ADX(n);
    return {
      add(bar) {
        return indicator.add({ high: bar.high, low: bar.low, close: bar.close }) ?? undefined;
      },
    };
  });
}

/**
 * Volume-weighted average price of the typical price (high + low + close) / 3 since the start of
 * the UTC day (a session VWAP: it starts again at midnight UTC). The venue publishes no trades:
 * `volume` says which volume weighs: `'ticks'` (snapshots with a mid per bar, the usual stand-in
 * where no trade volume exists) or `'own'` (this strategy's own fills; undefined until it trades).
 */
export function vwap(timeframe: string, volume: VolumeSource): IndicatorSpec<number> {
  const label = `vwap(${volume})`;
  checkSource(label, volume);
  return spec(timeframe, label, () => {
    let indicator = new VWAP();
    let day = Number.NaN;
    let value: number | undefined;
    return {
      add(bar) {
        const today = Math.floor(bar.bar.start / 86_400_000);
        if (today !== day) {
          day = today;
          indicator = new VWAP();
          value = undefined;
        }
        const result = indicator.add({
          high: bar.high,
          low: bar.low,
          close: bar.close,
          volume: volumeOf(bar, volume),
        });
        if (result !== null) value = result;
        return value;
      },
    };
  });
}

/**
 * On-balance volume: a running sum of each bar's volume, added when the close rose and taken
 * away when it fell, from the second bar. `volume` as for {@link vwap}.
 */
export function obv(timeframe: string, volume: VolumeSource): IndicatorSpec<number> {
  const label = `obv(${volume})`;
  checkSource(label, volume);
  return spec(timeframe, label, () => {
    const indicator = new OBV(2);
    return {
      add(bar) {
        const candle = {
          open: bar.open,
          high: bar.high,
          low: bar.low,
          close: bar.close,
          volume: volumeOf(bar, volume),
        };
        return indicator.add(candle) ?? undefined;
      },
    };
  });
}

function checkSource(label: string, volume: unknown): void {
  if (volume !== 'ticks' && volume !== 'own')
    throw new QuantaError(
      ErrorCodes.STRATEGY_LOAD,
      `${label}: volume must be 'ticks' (snapshots per bar) or 'own' (the strategy's fills), got ${String(volume)}`,
    );
}
