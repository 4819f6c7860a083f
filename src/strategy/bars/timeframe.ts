// The timeframe rule lives with the market data (candle history needs it too, and `market` may
// not import `strategy`); bars use it from here.
export {
  barStart,
  CHART_TIMEFRAMES_MS,
  coarserTimeframeMs,
  formatTimeframe,
  timeframeMs,
} from '../../market/timeframe.ts';
