import type { IndicatorKind } from './chart-placement.ts';
import type { ClosedBar } from '../bars/bar.ts';

/** What one indicator instance does with each closed bar: returns its value once it has one. */
export interface IndicatorEngine<V> {
  add(bar: ClosedBar): V | undefined;
}

/**
 * An indicator to register in `defineStrategy`'s `indicators` (made by `ema`, `rsi`… of
 * `quanta/indicators`): which timeframe's bars feed it and how to make one per market.
 */
export interface IndicatorSpec<V = unknown> {
  /** The timeframe whose closed bars update it (declared in `bars`). */
  readonly timeframe: string;
  /** What it is, for messages: `"ema(21)"`. */
  readonly label: string;
  /** Which indicator of the catalog (`"ema"`): where the report draws it (chart-placement.ts). */
  readonly kind?: IndicatorKind;
  /** A fresh instance (one per market). */
  readonly create: () => IndicatorEngine<V>;
}

/** The indicators a strategy registers, by the names it reads them with. */
export type IndicatorSet = Readonly<Record<string, IndicatorSpec>>;

/**
 * One registered indicator of one market as `ctx.indicators(market)` gives it: updated once per
 * closed bar of its timeframe, before `onBar` sees that bar.
 *
 * Values are **numbers: signals, not money**. They steer decisions; a price computed from one
 * reaches an order only through `toOrderPrice`, which rounds it to the market's grid exactly.
 */
export interface Indicator<V> {
  /** The value after the last closed bar, or undefined while the indicator is warming up. */
  readonly value: V | undefined;
  /** The value after the bar before (undefined until it has had two values): for crossings. */
  readonly previous: V | undefined;
  /** Bars it has been given. */
  readonly bars: number;
}

/** The value type of an indicator spec. */
export type IndicatorValue<T> = T extends IndicatorSpec<infer V> ? V : never;

/** What `ctx.indicators(market)` returns for a registered set: one {@link Indicator} per name. */
export type IndicatorValues<I> = { readonly [K in keyof I]: Indicator<IndicatorValue<I[K]>> };
