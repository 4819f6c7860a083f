/**
 * `quanta/indicators`: the indicators a strategy registers in `defineStrategy`'s `indicators`,
 * updated with every closed bar of their timeframe before `onBar` (docs/strategy-guide.md,
 * "Indicators"). A test snapshots this list, so every change to it is a visible decision.
 *
 * Indicator values are numbers: signals, not money. A price computed from one reaches an order
 * only through {@link toOrderPrice}, which rounds it to the market's grid exactly.
 */
export {
  sma,
  ema,
  wma,
  rsi,
  macd,
  bollinger,
  atr,
  stochastic,
  adx,
  vwap,
  obv,
  type MacdValue,
  type BandsValue,
  type StochasticValue,
  type VolumeSource,
} from './strategy/indicators/catalog.ts';
export type {
  Indicator,
  IndicatorSpec,
  IndicatorSet,
  IndicatorValues,
} from './strategy/indicators/spec.ts';
export { toOrderPrice } from './strategy/order-price.ts';
