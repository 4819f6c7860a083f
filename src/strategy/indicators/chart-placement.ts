/**
 * Where the report draws each indicator of `quanta/indicators` (issue 27): one table, so an
 * indicator added to the catalog has to say here whether it reads on the price axis or needs a
 * pane of its own. An oscillator drawn on the price axis (an RSI from 0 to 100 next to a price of
 * 3000) would flatten the candles to a line; a moving average in its own pane would hide what it
 * is compared with.
 */

/** Every indicator of the catalog, by the name of the function that makes it. */
export type IndicatorKind =
  | 'sma'
  | 'ema'
  | 'wma'
  | 'rsi'
  | 'macd'
  | 'bollinger'
  | 'atr'
  | 'stochastic'
  | 'adx'
  | 'vwap'
  | 'obv';

/** How the report draws one indicator. */
export interface ChartPlacement {
  /** `price`: over the candles, on their scale; `own`: in a pane of its own, its own scale. */
  readonly pane: 'price' | 'own';
  /** Guide lines drawn across its pane (an oscillator's overbought and oversold levels). */
  readonly levels?: readonly number[];
  /** Fields of its value drawn as a histogram rather than a line (MACD's histogram). */
  readonly histogram?: readonly string[];
}

/** The one table: every kind, where it goes. */
export const INDICATOR_CHARTS: Readonly<Record<IndicatorKind, ChartPlacement>> = {
  sma: { pane: 'price' },
  ema: { pane: 'price' },
  wma: { pane: 'price' },
  bollinger: { pane: 'price' },
  vwap: { pane: 'price' },
  rsi: { pane: 'own', levels: [30, 70] },
  stochastic: { pane: 'own', levels: [20, 80] },
  adx: { pane: 'own', levels: [25] },
  macd: { pane: 'own', levels: [0], histogram: ['histogram'] },
  atr: { pane: 'own' },
  obv: { pane: 'own' },
};

/**
 * Where an indicator goes; one whose kind is not known (not made by `quanta/indicators`) gets a
 * pane of its own, which cannot squash the candles.
 */
export function chartPlacement(kind: string | undefined): ChartPlacement {
  return (
    (kind !== undefined && Object.hasOwn(INDICATOR_CHARTS, kind)
      ? INDICATOR_CHARTS[kind as IndicatorKind]
      : undefined) ?? { pane: 'own' }
  );
}
